package mutation

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func testObject(namespace, name, resourceVersion string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, ResourceVersion: resourceVersion},
	}
}

func TestMutationDetectorChecksCurrentAndRetiredObjectsOnce(t *testing.T) {
	var reports []string
	d := New("test")
	d.Fail = func(msg string) { reports = append(reports, msg) }
	current, replaced, deleted := testObject("ns", "a", "2"), testObject("ns", "a", "1"), testObject("ns", "b", "1")
	d.Record("ns/a", replaced)
	d.Record("ns/a", current)
	d.Record("ns/b", deleted)
	d.Removed("ns/b")
	d.Check()
	if len(reports) != 0 {
		t.Fatalf("reports before any mutation: %v", reports)
	}
	d.Record("ns/b", testObject("ns", "b", "2")) // unrelated churn
	replaced.Labels = map[string]string{"x": "y"}
	current.Labels = map[string]string{"x": "y"}
	d.Check()
	if len(reports) != 1 || !strings.Contains(reports[0], `"ns/a"`) {
		t.Fatalf("reports %q, want exactly the mutated current object (retired ones were checked once already)", reports)
	}
}
