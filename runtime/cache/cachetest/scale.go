package cachetest

import "os"

// Scale returns large in the scale job (the environment variable SCALE is
// set: SCALE=1 ./hack/test.sh, or SCALE=1 ./hack/bench.sh) and small
// otherwise. A test whose cost grows with its size runs the same
// assertions on the small size in the test command and on the large one
// in the scale job.
func Scale(small, large int) int {
	if os.Getenv("SCALE") != "" {
		return large
	}
	return small
}
