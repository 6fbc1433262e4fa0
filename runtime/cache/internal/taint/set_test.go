package taint

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestSetHoldsObjectsByIdentity(t *testing.T) {
	var s Set
	marked := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "a", ResourceVersion: "1"}}
	equal := marked.DeepCopy()
	if s.Has(marked) {
		t.Fatal("an empty set has an object")
	}
	s.Add(marked)
	tests := []struct {
		name string
		obj  any
		want bool
	}{
		{"the marked object", marked, true},
		{"an equal copy of it", equal, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if got := s.Has(tt.obj); got != tt.want {
			t.Errorf("%s: Has = %v, want %v", tt.name, got, tt.want)
		}
	}
}
