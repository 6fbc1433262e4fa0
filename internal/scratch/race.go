//go:build race

package scratch

// Race reports whether this binary was built with the race detector.
const Race = true
