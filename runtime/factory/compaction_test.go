package factory

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// compactingFake is a fakeInformer that records SetCompaction.
type compactingFake struct {
	*fakeInformer
	compact bool
}

func (f *compactingFake) SetCompaction(on bool) error {
	f.compact = on
	return nil
}

// Compaction is on for every informer the factory makes, in every
// namespace; WithoutCompaction turns it off for every type,
// ByObject.DisableCompaction for one.
func TestCompactionIsTheDefaultUnlessTurnedOff(t *testing.T) {
	other := &metav1.Status{}
	tests := []struct {
		name            string
		opts            []Option
		want, wantOther bool
	}{
		{"default compacts", nil, true, true},
		{"default compacts, several namespaces", []Option{WithNamespaces("a", "b")}, true, true},
		{"WithoutCompaction turns it off", []Option{WithoutCompaction(), WithNamespaces("a", "b")}, false, false},
		{"ByObject.DisableCompaction turns it off for that type only", []Option{WithByObject(&metav1.PartialObjectMetadata{}, ByObject{DisableCompaction: true, Namespaces: []string{"a", "b"}})}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.opts...)
			check := func(obj runtime.Object, want bool) {
				t.Helper()
				var made []*compactingFake
				s.InformerFor(obj, func(c InformerConfig) cache.SharedIndexInformer {
					f := &compactingFake{fakeInformer: newFakeInformer(c)}
					made = append(made, f)
					return f
				})
				if len(made) == 0 {
					t.Fatalf("%T: no informer made", obj)
				}
				for _, f := range made {
					if f.compact != want {
						t.Errorf("%T, namespace %q: compaction %t, want %t", obj, f.config.Namespace, f.compact, want)
					}
				}
			}
			check(&metav1.PartialObjectMetadata{}, tt.want)
			check(other, tt.wantOther)
		})
	}
}

// The factory turns compaction on through SetCompaction: runtime/cache's
// informers must implement it, or factories would silently cache objects
// uncompacted.
func TestRuntimeCacheInformersTakeTheFactorysCompaction(t *testing.T) {
	inf := cache.NewSharedIndexInformer(nil, &metav1.PartialObjectMetadata{}, 0, nil)
	if _, ok := inf.(compactionSetter); !ok {
		t.Fatalf("%T does not implement SetCompaction", inf)
	}
}
