package compaction_test

import (
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"

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

// decodePods decodes every Pod from its own JSON.
func decodePods(tb testing.TB, src [][]byte) []*corev1.Pod {
	tb.Helper()
	out := make([]*corev1.Pod, len(src))
	for i, b := range src {
		out[i] = new(corev1.Pod)
		if err := json.Unmarshal(b, out[i]); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}
