package extract

import (
	"bytes"
	"compress/gzip"
	"errors"
	"runtime"
	"strings"
	"testing"
)

func gz(t testing.TB, parts ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range parts { // one member each
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(p))
		zw.Close()
	}
	return b.Bytes()
}

func TestRead(t *testing.T) {
	page := "<html><head><title>Doc</title></head><body><p>x &amp; y</p></body></html>"
	good := gz(t, "hello\n")
	tests := []struct {
		name     string
		file     string
		data     []byte
		limit    int
		wantName string
		title    string
		text     string
		err      error
	}{
		{"plain", "a.txt", []byte("hello"), 100, "a.txt", "", "hello", nil},
		{"gzip", "changelog.Debian.gz", good, 100, "changelog.Debian", "", "hello\n", nil},
		{"gzip in capitals", "NEWS.GZ", good, 100, "NEWS", "", "hello\n", nil},
		{"multi-member gzip", "log.gz", gz(t, "one ", "two"), 100, "log", "", "one two", nil},
		{"gzip at the limit", "a.gz", good, 6, "a", "", "hello\n", nil},
		{"gzip over the limit", "a.gz", good, 5, "a.gz", "", "", ErrTooLarge},
		{"not gzip", "a.gz", []byte("plain text"), 100, "a.gz", "", "", ErrGzip},
		{"cut short", "a.gz", good[:len(good)-5], 100, "a.gz", "", "", ErrGzip},
		{"bad checksum", "a.gz", append(append([]byte{}, good[:len(good)-8]...), 0, 0, 0, 0, 6, 0, 0, 0), 100, "a.gz", "", "", ErrGzip},
		{"empty name before .gz is a file named .gz", ".gz", []byte("x"), 100, ".gz", "", "x", nil},
		{"html", "index.html", []byte(page), 100, "index.html", "Doc", "x & y", nil},
		{"gzip'd html", "index.html.gz", gz(t, page), 1000, "index.html", "Doc", "x & y", nil},
		{"docbook xml", "guide.xml", []byte(`<?xml version="1.0"?><!-- c --><!DOCTYPE book><db:book><title>G</title><para>p</para></db:book>`), 100, "guide.xml", "G", "G\np", nil},
		{"config xml stays as it is", "pom.xml", []byte(`<project><artifactId>x</artifactId></project>`), 100, "pom.xml", "", `<project><artifactId>x</artifactId></project>`, nil},
		{"html in a .txt stays as it is", "a.txt", []byte("<p>x</p>"), 100, "a.txt", "", "<p>x</p>", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Read(tt.file, tt.data, tt.limit)
			if !errors.Is(err, tt.err) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if f.Name != tt.wantName || f.Title != tt.title || string(f.Text) != tt.text {
				t.Errorf("got %q %q %q, want %q %q %q", f.Name, f.Title, f.Text, tt.wantName, tt.title, tt.text)
			}
		})
	}
}

// A gzip bomb costs no more than the limit.
func TestGunzipBomb(t *testing.T) {
	bomb := gz(t, strings.Repeat("\x00", 64<<20))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Gunzip(bomb, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("bomb: %v", err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("a 64 MiB bomb with a 1 MiB limit allocated %d MiB", grew>>20)
	}
}

func FuzzGunzip(f *testing.F) {
	f.Add(gz(f, "hello"))
	f.Add(gz(f, "a", "b"))
	f.Add([]byte{0x1f, 0x8b})
	f.Add([]byte("plain"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Gunzip(data, 1024)
		if err != nil && !errors.Is(err, ErrGzip) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("error matches no sentinel: %v", err)
		}
		if len(out) > 1024 {
			t.Fatalf("%d bytes over the limit", len(out))
		}
		if _, err := Read("x.html.gz", data, 1024); err != nil && !errors.Is(err, ErrGzip) && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Read: %v", err)
		}
	})
}
