package plot

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// Each figure carries the mark Drawn finds, and stays a valid file of its
// format; a file td2048 did not draw has none.
func TestDrawnFigures(t *testing.T) {
	dir := t.TempDir()
	s := synth("run", 10, 1000, 20)
	for _, format := range []string{"png", "svg", "pdf"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(dir, "curve."+format)
			if err := Save(path, Options{}, s); err != nil {
				t.Fatal(err)
			}
			if drawn, err := Drawn(path); !drawn || err != nil {
				t.Fatalf("Drawn(%s) = %v, %v", path, drawn, err)
			}
			data, _ := os.ReadFile(path)
			switch format {
			case "png":
				if _, err := png.Decode(bytes.NewReader(data)); err != nil {
					t.Errorf("marked PNG: %v", err)
				}
			case "svg":
				svgTexts(t, data) // fails the test if not XML
			case "pdf":
				// The update's cross-reference section is where startxref
				// says, and points back to the file's own.
				m := regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`).FindSubmatch(data)
				if m == nil {
					t.Fatalf("no startxref at the end: %q", data[len(data)-100:])
				}
				at, _ := strconv.Atoi(string(m[1]))
				if !bytes.HasPrefix(data[at:], []byte("xref\n")) || !bytes.Contains(data[at:], []byte("/Prev ")) {
					t.Errorf("startxref %d points at %.20q", at, data[at:])
				}
			}
			// The same bytes without the mark are not td2048's.
			plain := bytes.Replace(data, []byte(mark), []byte("other plot!"), -1)
			os.WriteFile(path, plain, 0o644)
			if drawn, err := Drawn(path); drawn || err != nil {
				t.Errorf("a %s without the mark taken for td2048's: %v", format, err)
			}
		})
	}
	for name, data := range map[string]string{"empty.png": "", "text.png": "hello", "short.png": pngSignature} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			os.WriteFile(path, []byte(data), 0o644)
			if drawn, err := Drawn(path); drawn || err != nil {
				t.Errorf("%s: %v %v", name, drawn, err)
			}
		})
	}
	if _, err := Drawn(filepath.Join(dir, "missing.png")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}
