package cache

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestCacheMutationDetectorPanicsLikeClientGoOnAMutatedObject(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate bool
		add    func(obj *metav1.PartialObjectMetadata) any
		want   string
	}{
		{name: "unchanged object", add: func(o *metav1.PartialObjectMetadata) any { return o }, want: "no panic"},
		{name: "mutated object", mutate: true, add: func(o *metav1.PartialObjectMetadata) any { return o }, want: "cache pods modified"},
		{name: "tombstones are not watched", mutate: true, add: func(o *metav1.PartialObjectMetadata) any {
			return DeletedFinalStateUnknown{Key: "ns/a", Obj: o}
		}, want: "no panic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(mutationDetectorEnv, "true")
			d := NewCacheMutationDetector("pods")
			obj := testObject("ns", "a", "1")
			d.AddObject(tc.add(obj))
			if tc.mutate {
				obj.Labels = map[string]string{"changed": "yes"}
			}
			stop := make(chan struct{})
			close(stop)
			got := func() (msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg = fmt.Sprint(r)
					}
				}()
				d.Run(stop) // checks once, then sees stop
				return "no panic"
			}()
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCacheMutationDetectorIsOffByDefault(t *testing.T) {
	t.Setenv(mutationDetectorEnv, "false")
	if _, ok := NewCacheMutationDetector("pods").(noMutationDetector); !ok {
		t.Fatal("the detector is on without KUBE_CACHE_MUTATION_DETECTOR=true")
	}
}

func TestCacheMutationDetectorStopsCheckingAnObjectTwoGenerationsLater(t *testing.T) {
	t.Setenv(mutationDetectorEnv, "true")
	o := NewCacheMutationDetector("pods").(*objectMutationDetector)
	obj := testObject("ns", "a", "1")
	o.AddObject(obj)
	o.rotate() // obj is in the previous generation: still checked
	o.rotate() // retired: checked once more, then dropped
	tracked, retired := o.d.Tracked()
	if tracked != 0 || retired != 1 {
		t.Fatalf("tracked %d, retired %d; want 0 and 1", tracked, retired)
	}
	o.d.Check()
	obj.Labels = map[string]string{"changed": "yes"}
	o.d.Check() // must not panic: obj is no longer watched
}
