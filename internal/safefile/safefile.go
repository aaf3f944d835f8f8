// Package safefile writes the files td2048's commands produce so that
// nothing is lost: every output path is checked before the work starts, a
// file is replaced atomically (a temporary file beside it, synced and
// renamed), and a writer holds an advisory lock on its target so that a
// second writer is refused with the first one's process named.
//
// A path is taken for the file it names: a symbolic link is followed to
// the file it points to (Resolve), which is then the one locked, written
// and replaced, while the link stays a link. The lock of a file is an
// flock(2) (LockFileEx on Windows) on a hidden file ".NAME.lock" beside
// it, holding the owner's process id and command line; while the file
// exists, the holder also holds an flock on the file itself, so that a
// writer that reaches the same file through another hard link is refused
// too (not on Windows, whose files cannot be renamed over while open).
// Temporary files are ".NAME.tmpDIGITS" beside the target; the holder of
// the lock removes those a killed writer left behind, and no other file.
// Aligned 4 KB blocks of zeros are left as holes: the same bytes, in less
// disk and page cache (see holes).
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// maxLinks bounds the symbolic links followed from one path.
const maxLinks = 40

// Resolve returns the absolute path of the file path names, with every
// symbolic link on the way followed, also a last one that points to a
// file not yet made (the file a write through the link would create). A
// folder that does not exist is kept as written (Check reports it).
func Resolve(path string) (string, error) {
	if path == "" {
		return "", errors.New("empty file name")
	}
	p, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	for range maxLinks {
		dir, base := filepath.Split(p)
		if d, err := filepath.EvalSymlinks(dir); err == nil {
			dir = d // else a folder that is not there: Check says so
		}
		p = filepath.Join(dir, base)
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		t, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("%s: %v", path, UnwrapPath(err))
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(dir, t)
		}
		p = t
	}
	return "", fmt.Errorf("%s: more than %d symbolic links in a row (a loop?)", path, maxLinks)
}

// Same reports whether a and b name the same file: the same file now, or
// the same path once links are followed.
func Same(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	ra, err1 := Resolve(a)
	rb, err2 := Resolve(b)
	return err1 == nil && err2 == nil && ra == rb
}

// Check reports, before any work, whether path can be written: a file name
// (not empty, not a folder, not a device, pipe or socket) in a folder that
// exists and that this process may create files in. It leaves nothing
// behind.
func Check(path string) error {
	if path == "" {
		return errors.New("empty file name")
	}
	if strings.HasSuffix(path, string(filepath.Separator)) || strings.HasSuffix(path, "/") {
		return fmt.Errorf("%s is a folder, not a file name", path)
	}
	real, err := Resolve(path)
	if err != nil {
		return fmt.Errorf("cannot write %w", err)
	}
	return check(path, real)
}

// check is Check of path, whose file is real.
func check(path, real string) error {
	if of := ownerOf(filepath.Base(real)); of != "" {
		return fmt.Errorf("%s is td2048's own %s; choose another name", path, of)
	}
	if fi, err := os.Stat(real); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s is a folder, not a file name", path)
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is %s, not a regular file: td2048 replaces the files it writes whole, and will not replace it", path, kindOf(fi.Mode()))
		}
	}
	dir, shown := filepath.Dir(real), filepath.Dir(path)
	if abs, err := filepath.Abs(path); err == nil && abs != real {
		shown = displayPath(dir) // path is a link: its target's folder
	}
	fi, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("cannot write %s: folder %s does not exist", path, shown)
		}
		return fmt.Errorf("cannot write %s: %v", path, UnwrapPath(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a folder", path, shown)
	}
	f, err := os.CreateTemp(dir, tempPattern(real))
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, UnwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// kindOf names a file mode that is not a regular file or a folder.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// UnwrapPath is the cause of an error about a path (os.PathError,
// os.LinkError): the message without the path, which the caller words.
func UnwrapPath(err error) error {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err
	}
	if le, ok := errors.AsType[*os.LinkError](err); ok {
		return le.Err
	}
	return err
}

// tempPattern is the os.CreateTemp pattern of the temporary files of the
// file at path: ".NAME.tmp" and the digits CreateTemp puts for the "*".
func tempPattern(path string) string { return "." + filepath.Base(path) + ".tmp*" }

// isTemp reports whether name (a base name) is one of the temporary files
// of the file named base: exactly ".BASE.tmp" and digits, so that the
// temporaries of a file whose own name starts with BASE are not its.
func isTemp(name, base string) bool {
	rest, ok := strings.CutPrefix(name, "."+base+".tmp")
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

// ownerOf says whose lock or temporary file a file named base would be:
// "lock file of NAME" or "temporary file of NAME", or "" when it is
// neither. Writing one would break the lock, or lose a save under way.
func ownerOf(base string) string {
	if m := ownName.FindStringSubmatch(base); m != nil {
		if m[2] == ".lock" {
			return "lock file of " + m[1]
		}
		return "temporary file of " + m[1]
	}
	return ""
}

var ownName = regexp.MustCompile(`^\.(.+)(\.lock|\.tmp[0-9]+)$`)

// A Lock is a held advisory lock on an output file.
type Lock struct {
	path string   // as the caller named it
	abs  string   // path made absolute
	real string   // Resolve(path): the file locked
	f    *os.File // the lock file, locked
	file *os.File // the file itself, locked, while it exists (see holdFile)
}

// LockError says that another process holds the lock.
type LockError struct {
	Path   string // as named
	Target string // the file a link named Path points to, or ""
	PID    int    // the holder, 0 when unknown
	Cmd    string // its command line, when known
	// Linked: the holder writes the same file under another name (a hard
	// link).
	Linked bool
}

func (e *LockError) Error() string {
	name := e.Path
	if e.Target != "" {
		name += " (a link to " + e.Target + ")"
	}
	if e.PID == os.Getpid() {
		return fmt.Sprintf("%s is named twice among this command's outputs (or through a link): give each output its own file", name)
	}
	who := "another process"
	if e.PID > 0 {
		who = "process " + strconv.Itoa(e.PID)
		if e.Cmd != "" {
			who += " (" + e.Cmd + ")"
		}
	}
	if e.Linked {
		who += " under another name of the same file (a hard link)"
	}
	return fmt.Sprintf("%s is being written by %s; wait for it to finish or stop it", name, who)
}

func lockName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// held are the locks this process holds, by the file locked (m) and by
// the absolute path named to Acquire (byName), so that WriteAtomic and
// OpenFile write the file locked and keep the lock of the file itself on
// the file that is there after they write.
var held = struct {
	sync.Mutex
	m, byName map[string]*Lock
}{m: map[string]*Lock{}, byName: map[string]*Lock{}}

// target is the file a write to path goes to, and this process's lock of
// it, if any: the file locked when path was named to Acquire (a link at
// path pointed elsewhere since does not move the write to a file not
// locked), else path resolved.
func target(path string) (string, *Lock, error) {
	held.Lock()
	defer held.Unlock()
	if abs, err := filepath.Abs(path); err == nil {
		if l := held.byName[abs]; l != nil {
			return l.real, l, nil
		}
	}
	real, err := Resolve(path)
	if err != nil {
		return "", nil, err
	}
	return real, held.m[real], nil
}

// Acquire takes the lock of the file path names (a link followed) without
// waiting, or returns a *LockError naming the process that holds it, also
// when that process writes the file under another name. Holding the lock,
// it removes the temporary files of path that a killed writer left.
func Acquire(path string) (*Lock, error) {
	real, err := Resolve(path)
	if err != nil {
		return nil, fmt.Errorf("lock %w", err)
	}
	abs, absErr := filepath.Abs(path)
	target := ""
	if absErr == nil && abs != real {
		target = displayPath(real)
	}
	name := lockName(real)
	for range 10 {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %v", path, UnwrapPath(err))
		}
		if isHeld, err := tryLock(f); err != nil {
			b, _ := io.ReadAll(io.LimitReader(f, 4096))
			f.Close()
			if isHeld {
				pid, cmd, _ := strings.Cut(string(b), "\n")
				n, _ := strconv.Atoi(strings.TrimSpace(pid))
				return nil, &LockError{Path: path, Target: target, PID: n, Cmd: strings.TrimSpace(cmd)}
			}
			if unsupported(err) {
				return nil, fmt.Errorf("lock %s: the file system refuses file locks (%v): mount it with them (Lustre: -o flock, or -o localflock when every writer runs on one node; NFS: with its lock service), or write to a folder on one that has them", path, err)
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		// The holder before us may have removed the file after we opened
		// it: then our lock is on a file nobody else will see; retry.
		a, errA := f.Stat()
		b, errB := os.Stat(name)
		if errA != nil || errB != nil || !os.SameFile(a, b) {
			f.Close()
			continue
		}
		f.Truncate(0)
		fmt.Fprintf(f, "%d\n%s\n", os.Getpid(), strings.Join(os.Args, " "))
		l := &Lock{path: path, abs: abs, real: real, f: f}
		if err := l.holdFile(); err != nil {
			if le, ok := err.(*LockError); ok {
				le.Target = target
			}
			l.unlock()
			return nil, err
		}
		held.Lock()
		held.m[real] = l
		if absErr == nil {
			held.byName[abs] = l
		}
		held.Unlock()
		l.removeStale()
		return l, nil
	}
	return nil, fmt.Errorf("lock %s: the lock file keeps changing", path)
}

// displayPath is path relative to the working folder when it is inside
// it, else path.
func displayPath(path string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// holdFile locks the file now at the lock's path itself, when it is a
// regular file whose lock the holder does not hold yet: a writer that
// names the same file through a hard link finds it locked. Where the
// system or filesystem offers no such lock, the lock file alone guards.
func (l *Lock) holdFile() error {
	if !fileLocks {
		return nil
	}
	fi, err := os.Stat(l.real)
	if err != nil || !fi.Mode().IsRegular() {
		return nil // no file yet: the writer makes it (WriteAtomic, OpenFile)
	}
	if l.file != nil {
		if a, err := l.file.Stat(); err == nil && os.SameFile(a, fi) {
			return nil
		}
	}
	f, err := os.OpenFile(l.real, os.O_RDWR, 0)
	if err != nil {
		if f, err = os.Open(l.real); err != nil {
			return nil // unreadable: its writer reports that
		}
	}
	isHeld, err := tryLock(f)
	if err != nil {
		f.Close()
		if isHeld {
			pid := holder(fi)
			return &LockError{Path: l.path, PID: pid, Cmd: commandLine(pid), Linked: pid != os.Getpid()}
		}
		return nil
	}
	l.setFile(f)
	return nil
}

// setFile makes f the file the lock holds, closing the one it held.
func (l *Lock) setFile(f *os.File) {
	if l.file != nil {
		l.file.Close()
	}
	l.file = f
}

// AcquireAll takes the locks of every path, in order, releasing them all
// if one fails. Empty paths and repeats (the same file, also through a
// link) are skipped.
func AcquireAll(paths ...string) (Locks, error) {
	var ls Locks
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "" {
			continue
		}
		if real, err := Resolve(p); err == nil {
			if seen[real] {
				continue
			}
			seen[real] = true
		}
		l, err := Acquire(p)
		if err != nil {
			ls.Release()
			return nil, err
		}
		ls = append(ls, l)
	}
	return ls, nil
}

// Locks are several held locks.
type Locks []*Lock

// Release releases every lock.
func (ls Locks) Release() {
	for _, l := range ls {
		l.Release()
	}
}

// removeStale removes the temporary files of the target: with the lock
// held no other writer can be making one.
func (l *Lock) removeStale() {
	dir, base := filepath.Split(l.real)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if isTemp(e.Name(), base) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// Release removes the lock file and releases the lock.
func (l *Lock) Release() {
	if l == nil {
		return
	}
	held.Lock()
	defer held.Unlock()
	if l.f == nil {
		return
	}
	if held.m[l.real] == l {
		delete(held.m, l.real)
	}
	if held.byName[l.abs] == l {
		delete(held.byName, l.abs)
	}
	l.unlock()
}

func (l *Lock) unlock() {
	l.setFile(nil)
	os.Remove(lockName(l.real))
	l.f.Close()
	l.f = nil
}

// OpenFile is os.OpenFile for a file written in place (a log): when this
// process holds the lock of path, it opens the file locked, and also takes
// the lock of the file itself, made or replaced since the lock was taken.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	real, l, err := target(path)
	if err != nil || l == nil {
		return os.OpenFile(path, flag, perm)
	}
	f, err := os.OpenFile(real, flag, perm)
	if err != nil {
		return nil, err
	}
	held.Lock()
	err = l.holdFile()
	held.Unlock()
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// WriteAtomic creates path with the bytes write produces, through a
// temporary file in the same folder that is synced and renamed, so that
// path holds either its old content or all of the new. A symbolic link at
// path is written through: the file it points to is replaced (the one it
// pointed to when this process took the lock of path, if it did), and the
// link stays.
func WriteAtomic(path string, write func(io.Writer) error) (err error) {
	if path == "" {
		return errors.New("empty file name")
	}
	real, l, err := target(path)
	if err != nil {
		return fmt.Errorf("save %w", err)
	}
	if err := check(path, real); err != nil {
		return err
	}
	dir := filepath.Dir(real)
	f, err := os.CreateTemp(dir, tempPattern(real))
	if err != nil {
		return fmt.Errorf("save %s: %v", path, UnwrapPath(err))
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	h := &holes{f: f}
	if err = write(h); err != nil {
		// The temporary file's own name says nothing to the user; what
		// the writer says of other files (the ones it read) stays.
		if pe, ok := err.(*os.PathError); ok && pe.Path == f.Name() {
			err = pe.Err
		}
		return fmt.Errorf("save %s: %w", path, err)
	}
	// The length counts a hole at the end; CreateTemp makes 0600 files.
	truncate, chmod := func() error { return f.Truncate(h.off) }, func() error { return f.Chmod(0o644) }
	for _, step := range []func() error{truncate, chmod, f.Sync, f.Close} {
		if err = step(); err != nil {
			return fmt.Errorf("save %s: %w", path, UnwrapPath(err))
		}
	}
	// The holder of the lock locks the new file before it takes the old
	// one's place, so that it is never there unlocked.
	var next *os.File
	if l != nil && fileLocks {
		if g, err := os.Open(f.Name()); err == nil {
			if _, err := tryLock(g); err == nil {
				next = g
			} else {
				g.Close()
			}
		}
	}
	if err = os.Rename(f.Name(), real); err != nil {
		if next != nil {
			next.Close()
		}
		return fmt.Errorf("save %s: %w", path, UnwrapPath(err))
	}
	if next != nil {
		held.Lock()
		if l.f != nil {
			l.setFile(next)
		} else {
			next.Close()
		}
		held.Unlock()
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// holeBlock is the size and alignment, in the file, of the zero blocks
// holes leaves unwritten: the page size of the systems td2048 runs on.
const holeBlock = 4096

var zeroBlock [holeBlock]byte

// holes writes to f what it is given, in order from the start, but leaves
// each aligned block of holeBlock zero bytes unwritten: a hole, which reads
// back as the same zeros and takes neither disk nor page cache. Networks
// are sparse, a short run's most of all, and writing their zeros would
// take much of its wall time (docs/speed.md, "Thresholds and what they
// rest on"). The caller then truncates f to off, so that zeros left as a
// hole at the end still count in the file's length.
type holes struct {
	f   *os.File
	off int64 // bytes given so far
}

func (h *holes) Write(p []byte) (int, error) {
	n := len(p)
	run, at := 0, h.off // p[run:i] is still to be written, at offset at
	for i := 0; i < len(p); {
		k := min(len(p)-i, int(holeBlock-h.off%holeBlock))
		if k == holeBlock && bytes.Equal(p[i:i+k], zeroBlock[:]) {
			if _, err := h.f.WriteAt(p[run:i], at); err != nil {
				return run, err // p[:run] is written or a hole
			}
			run, at = i+k, h.off+int64(k)
		}
		i += k
		h.off += int64(k)
	}
	if _, err := h.f.WriteAt(p[run:], at); err != nil {
		return run, err
	}
	return n, nil
}

// Sniff reads up to n bytes from the start of the file at path: nil when
// there is no such file.
func Sniff(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, int64(n)))
}
