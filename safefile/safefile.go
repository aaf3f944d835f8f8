// Package safefile writes the files td2048's commands produce so that
// nothing is lost: every output path is checked before the work starts, a
// file is replaced atomically (a temporary file beside it, synced and
// renamed), and a writer holds an advisory lock on its target so that a
// second writer is refused with the first one's process named.
//
// The lock of path is an flock(2) (LockFileEx on Windows) on a hidden file
// ".NAME.lock" beside it, holding the owner's process id and command line.
// Temporary files are ".NAME.tmp*" beside the target; the holder of the
// lock removes those a killed writer left behind. Aligned 4 KB blocks of
// zeros are left as holes: the same bytes, in less disk and page cache
// (see holes).
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Check reports, before any work, whether path can be written: a file name
// (not empty, not a folder) in a folder that exists and that this process
// may create files in. It leaves nothing behind.
func Check(path string) error {
	if path == "" {
		return errors.New("empty file name")
	}
	if strings.HasSuffix(path, string(filepath.Separator)) {
		return fmt.Errorf("%s is a folder, not a file name", path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a folder, not a file name", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("cannot write %s: folder %s does not exist", path, dir)
		}
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a folder", path, dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// unwrapPath drops the temporary file's name from an error about it.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// A Lock is a held advisory lock on an output path.
type Lock struct {
	path string
	f    *os.File
}

// LockError says that another process holds the lock.
type LockError struct {
	Path string
	PID  int
	Cmd  string
}

func (e *LockError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = "process " + strconv.Itoa(e.PID)
		if e.Cmd != "" {
			who += " (" + e.Cmd + ")"
		}
	}
	return fmt.Sprintf("%s is being written by %s; wait for it to finish or stop it", e.Path, who)
}

func lockName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// Acquire takes the lock of path without waiting, or returns a *LockError
// naming the process that holds it. Holding the lock, it removes the
// temporary files of path that a killed writer left.
func Acquire(path string) (*Lock, error) {
	name := lockName(path)
	for range 10 {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %v", path, unwrapPath(err))
		}
		if held, err := tryLock(f); err != nil {
			b, _ := io.ReadAll(io.LimitReader(f, 4096))
			f.Close()
			if held {
				le := &LockError{Path: path}
				pid, cmd, _ := strings.Cut(string(b), "\n")
				le.PID, _ = strconv.Atoi(strings.TrimSpace(pid))
				le.Cmd = strings.TrimSpace(cmd)
				return nil, le
			}
			return nil, fmt.Errorf("lock %s: %v", path, err)
		}
		// The holder before us may have removed the file after we opened
		// it: then our lock is on a file nobody else will see; retry.
		if a, err := f.Stat(); err != nil {
			f.Close()
			continue
		} else if b, err := os.Stat(name); err != nil || !os.SameFile(a, b) {
			f.Close()
			continue
		}
		f.Truncate(0)
		fmt.Fprintf(f, "%d\n%s\n", os.Getpid(), strings.Join(os.Args, " "))
		l := &Lock{path: path, f: f}
		l.removeStale()
		return l, nil
	}
	return nil, fmt.Errorf("lock %s: the lock file keeps changing", path)
}

// AcquireAll takes the locks of every path, in order, releasing them all
// if one fails. Empty paths and repeats are skipped.
func AcquireAll(paths ...string) (Locks, error) {
	var ls Locks
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err == nil {
			p = abs
		}
		if seen[p] {
			continue
		}
		seen[p] = true
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

// removeStale removes temporary files of the target: with the lock held no
// other writer can be making one.
func (l *Lock) removeStale() {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(l.path), "."+globEscape(filepath.Base(l.path))+".tmp*"))
	for _, m := range matches {
		os.Remove(m)
	}
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// Release removes the lock file and releases the lock.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(lockName(l.path))
	l.f.Close()
	l.f = nil
}

// WriteAtomic creates path with the bytes write produces, through a
// temporary file in the same folder that is synced and renamed, so that
// path holds either its old content or all of the new.
func WriteAtomic(path string, write func(io.Writer) error) (err error) {
	if err := Check(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("save %s: %v", path, unwrapPath(err))
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	h := &holes{f: f}
	if err = write(h); err != nil {
		return fmt.Errorf("save %s: %w", path, unwrapPath(err))
	}
	if err = f.Truncate(h.off); err != nil { // a hole at the end
		return fmt.Errorf("save %s: %w", path, unwrapPath(err))
	}
	if err = f.Chmod(0o644); err != nil { // CreateTemp makes 0600 files
		return fmt.Errorf("save %s: %w", path, unwrapPath(err))
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("save %s: %w", path, unwrapPath(err))
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("save %s: %w", path, unwrapPath(err))
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("save %s: %w", path, unwrapPath(err))
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
// are sparse (4x6 after 10k episodes: 62% of its 4 KB blocks are all
// zeros; after 100k, 38%), and on this project's VM writing fresh page
// cache runs at about 500 MB/s. The caller then truncates f to off, so
// that zeros left as a hole at the end still count in the file's length.
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
	b := make([]byte, n)
	k, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:k], nil
}
