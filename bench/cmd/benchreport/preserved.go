package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
)

// The sections between these markers of docs/benchmarks.md are written by
// other programs (the recovery benchmark of conformance/, and
// e2e/cmd/scalebench, the real kube-apiserver measurements of Pods and of
// custom resources); writeReport
// carries them over unchanged, in this order, when it rewrites the file.
const (
	preservedStart = "<!-- scalebench:start -->"
	preservedEnd   = "<!-- scalebench:end -->"
	recoveryStart  = "<!-- recovery:start -->"
	recoveryEnd    = "<!-- recovery:end -->"
	routesStart    = "<!-- scalebench-httproutes:start -->"
	routesEnd      = "<!-- scalebench-httproutes:end -->"
	// The cost growth on a real kube-apiserver (scalebench -sizes); the
	// in-memory one is growthStart and growthEnd (growth.go).
	scaleGrowthStart = "<!-- scalebench-growth:start -->"
	scaleGrowthEnd   = "<!-- scalebench-growth:end -->"
)

var preservedMarkers = [][2]string{{recoveryStart, recoveryEnd}, {preservedStart, preservedEnd}, {routesStart, routesEnd},
	{growthStart, growthEnd}, {scaleGrowthStart, scaleGrowthEnd}}

// preservedSection returns the marked blocks of the report at path,
// markers included and each followed by a newline, or "" when the file
// does not exist or has no complete block.
func preservedSection(path string) (string, error) {
	old, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var kept string
	for _, m := range preservedMarkers {
		kept += markedBlock(old, m[0], m[1])
	}
	return kept, nil
}

// markedBlock returns the first block of doc from start to the following
// end, markers included, with a trailing newline; "" when there is none.
func markedBlock(doc []byte, start, end string) string {
	i := bytes.Index(doc, []byte(start))
	if i < 0 {
		return ""
	}
	j := bytes.Index(doc[i:], []byte(end))
	if j < 0 {
		return ""
	}
	return string(doc[i:i+j+len(end)]) + "\n"
}
