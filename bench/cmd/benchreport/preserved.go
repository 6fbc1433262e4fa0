package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
)

// The section between these markers of docs/benchmarks.md is written by
// another program (e2e/cmd/scalebench, the real kube-apiserver
// measurements); writeReport carries it over unchanged when it rewrites the
// file.
const (
	preservedStart = "<!-- scalebench:start -->"
	preservedEnd   = "<!-- scalebench:end -->"
)

// preservedSection returns the marked block of the report at path, markers
// included and followed by a newline, or "" when the file does not exist or
// has no complete block.
func preservedSection(path string) (string, error) {
	old, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return markedBlock(old), nil
}

// markedBlock returns the first block of doc from preservedStart to the
// following preservedEnd, markers included, with a trailing newline; "" when
// there is none.
func markedBlock(doc []byte) string {
	i := bytes.Index(doc, []byte(preservedStart))
	if i < 0 {
		return ""
	}
	j := bytes.Index(doc[i:], []byte(preservedEnd))
	if j < 0 {
		return ""
	}
	return string(doc[i:i+j+len(preservedEnd)]) + "\n"
}
