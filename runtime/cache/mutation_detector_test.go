package cache

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestMutationDetectorEnabledByEnvironment(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want bool
	}{{"true", true}, {"false", false}, {"", false}} {
		t.Setenv(mutationDetectorEnv, tt.env)
		inf := NewSharedIndexInformer(newModelServer(), &metav1.PartialObjectMetadata{}, time.Minute, nil).(*sharedIndexInformer)
		if got := inf.detector != nil; got != tt.want {
			t.Errorf("%s=%q: detector enabled %v, want %v", mutationDetectorEnv, tt.env, got, tt.want)
		}
	}
}

func TestMutationDetectorChecksCurrentAndRetiredObjectsOnce(t *testing.T) {
	var reports []string
	d := newMutationDetector("test")
	d.fail = func(msg string) { reports = append(reports, msg) }
	current, replaced, deleted := testObject("ns", "a", "2"), testObject("ns", "a", "1"), testObject("ns", "b", "1")
	d.record("ns/a", replaced)
	d.record("ns/a", current)
	d.record("ns/b", deleted)
	d.forget("ns/b")
	d.check()
	if len(reports) != 0 {
		t.Fatalf("reports before any mutation: %v", reports)
	}
	d.record("ns/b", testObject("ns", "b", "2")) // unrelated churn
	replaced.Labels = map[string]string{"x": "y"}
	current.Labels = map[string]string{"x": "y"}
	d.check()
	if len(reports) != 1 || !strings.Contains(reports[0], `"ns/a"`) {
		t.Fatalf("reports %q, want exactly the mutated current object (retired ones were checked once already)", reports)
	}
}
