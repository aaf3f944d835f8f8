package plot

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
)

// Every figure td2048 draws carries its mark, so that a command asked to
// write a figure over an existing file can tell one of its own figures,
// which it redraws from the logs and may replace, from a photo or a
// paper's PDF, which it must not: a PNG has a tEXt chunk "Software" of
// "td2048 plot" right after its header chunk, an SVG the comment
// <!-- td2048 plot --> after its XML declaration, and a PDF the Creator
// "td2048 plot" in an update at its end (its document information, as
// PDF readers show it).
const mark = "td2048 plot"

var (
	pngSignature = "\x89PNG\r\n\x1a\n"
	pngMark      = "tEXtSoftware\x00" + mark
	svgMark      = "<!-- " + mark + " -->"
	pdfMark      = "/Creator (" + mark + ")"
)

// pngIHDREnd is where a PNG's header chunk ends: the signature, and the
// chunk of 13 bytes of data with its length, type and checksum.
const pngIHDREnd = 8 + 4 + 4 + 13 + 4

// markFigure returns the figure data of format ("png", "svg" or "pdf", as
// Curves has checked) with the mark added.
func markFigure(format string, data []byte) ([]byte, error) {
	switch format {
	case "png":
		if len(data) < pngIHDREnd || string(data[:8]) != pngSignature || string(data[12:16]) != "IHDR" {
			return nil, fmt.Errorf("the PNG encoder wrote no header chunk")
		}
		text := pngMark[4:]
		chunk := binary.BigEndian.AppendUint32(nil, uint32(len(text)))
		chunk = append(chunk, pngMark...)
		chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE([]byte(pngMark)))
		return slices.Concat(data[:pngIHDREnd], chunk, data[pngIHDREnd:]), nil
	case "svg":
		i := bytes.IndexByte(data, '\n')
		if !bytes.HasPrefix(data, []byte("<?xml")) || i < 0 {
			return nil, fmt.Errorf("the SVG has no XML declaration")
		}
		return slices.Concat(data[:i+1], []byte(svgMark+"\n"), data[i+1:]), nil
	}
	return markPDF(data)
}

var (
	pdfStartXref = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)
	pdfSize      = regexp.MustCompile(`/Size\s+(\d+)`)
	pdfRoot      = regexp.MustCompile(`/Root\s+(\d+\s+\d+\s+R)`)
)

// markPDF appends an incremental update to a PDF: a new document
// information dictionary that names td2048 its creator, with its
// cross-reference section and a trailer that points back to the file's
// own (the way PDF editors add to a file without rewriting it).
func markPDF(data []byte) ([]byte, error) {
	tail := data[max(0, len(data)-4096):]
	t := bytes.LastIndex(tail, []byte("trailer"))
	sx := pdfStartXref.FindSubmatch(tail)
	if t < 0 || sx == nil {
		return nil, fmt.Errorf("the PDF has no trailer")
	}
	size := pdfSize.FindSubmatch(tail[t:])
	root := pdfRoot.FindSubmatch(tail[t:])
	if size == nil || root == nil {
		return nil, fmt.Errorf("the PDF's trailer has no /Size or /Root")
	}
	n, err := strconv.Atoi(string(size[1]))
	if err != nil {
		return nil, fmt.Errorf("the PDF's trailer: %w", err)
	}
	var b bytes.Buffer
	b.Write(data)
	if !bytes.HasSuffix(data, []byte("\n")) {
		b.WriteByte('\n')
	}
	obj := b.Len()
	fmt.Fprintf(&b, "%d 0 obj\n<<\n%s\n/Producer (%s with gonum/plot)\n>>\nendobj\n", n, pdfMark, mark)
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 1\n0000000000 65535 f \n%d 1\n%010d 00000 n \n", n, obj)
	fmt.Fprintf(&b, "trailer\n<<\n/Size %d\n/Root %s\n/Info %d 0 R\n/Prev %s\n>>\nstartxref\n%d\n%%%%EOF\n", n+1, root[1], n, sx[1], xref)
	return b.Bytes(), nil
}

// Drawn reports whether the file at path is a figure td2048 drew: a PNG,
// SVG or PDF that carries its mark. Such a figure holds nothing its logs
// do not, so replacing it loses nothing; any other file may.
func Drawn(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, 512))
	if err != nil {
		return false, err
	}
	switch {
	case bytes.HasPrefix(head, []byte(pngSignature)):
		return len(head) >= pngIHDREnd+4+len(pngMark) && string(head[pngIHDREnd+4:pngIHDREnd+4+len(pngMark)]) == pngMark, nil
	case bytes.HasPrefix(head, []byte("<?xml")):
		i := bytes.IndexByte(head, '\n')
		return i >= 0 && bytes.HasPrefix(head[i+1:], []byte(svgMark)), nil
	case bytes.HasPrefix(head, []byte("%PDF")):
		fi, err := f.Stat()
		if err != nil {
			return false, err
		}
		tail := make([]byte, min(fi.Size(), 1024))
		if _, err := f.ReadAt(tail, fi.Size()-int64(len(tail))); err != nil {
			return false, err
		}
		return bytes.Contains(tail, []byte(pdfMark)), nil
	}
	return false, nil
}
