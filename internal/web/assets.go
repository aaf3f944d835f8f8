package web

// The page and its files, embedded in the binary, with types and tags.

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed static
var staticFS embed.FS

type asset struct {
	data  []byte
	ctype string
	etag  string
}

// loadAssets reads the embedded files once, with their types and tags.
func (s *Server) loadAssets() error {
	s.assets = map[string]asset{}
	return fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := staticFS.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		ctype := mime.TypeByExtension(path.Ext(p))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		s.assets[strings.TrimPrefix(p, "static/")] = asset{data, ctype, `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
}

// static serves one embedded file by its name; there are no folders, so no
// name can lead anywhere but to an embedded file.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if name == "index.html" {
		http.Redirect(w, r, "/", http.StatusMovedPermanently)
		return
	}
	s.serveAsset(w, r, name)
}

func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	a, ok := s.assets[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", a.etag)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(a.data))
}
