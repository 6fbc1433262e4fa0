//go:build !race

package versions

// race reports whether this test binary has the race detector (goArgs).
const race = false
