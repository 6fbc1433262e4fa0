package decoding

import (
	"testing"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
)

// podJSON returns dataset.PodJSON(n), failing tb on an error.
func podJSON(tb testing.TB, n int) [][]byte {
	tb.Helper()
	out, err := dataset.PodJSON(n)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
