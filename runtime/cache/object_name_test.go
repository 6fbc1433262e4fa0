package cache

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

func TestObjectNameRoundTrips(t *testing.T) {
	tests := []struct {
		key      string
		ns, name string
		bad      bool
	}{
		{key: "ns/n", ns: "ns", name: "n"},
		{key: "n", name: "n"},
		{key: "a/b/c", bad: true},
	}
	for _, tt := range tests {
		n, err := ParseObjectName(tt.key)
		if (err != nil) != tt.bad {
			t.Fatalf("ParseObjectName(%q) error %v", tt.key, err)
		}
		if tt.bad {
			continue
		}
		if n != NewObjectName(tt.ns, tt.name) || n.String() != tt.key {
			t.Fatalf("ParseObjectName(%q) = %+v (String %q)", tt.key, n, n.String())
		}
		if ns, name := n.Parts(); ns != tt.ns || name != tt.name {
			t.Fatalf("Parts = %q %q", ns, name)
		}
		if NamespacedNameAsObjectName(n.AsNamespacedName()) != n || n.AsNamespacedName() != (types.NamespacedName{Namespace: tt.ns, Name: tt.name}) {
			t.Fatalf("NamespacedName round trip of %+v", n)
		}
	}
	obj := testObject("ns", "n", "1")
	if n, err := ObjectToName(obj); err != nil || n != NewObjectName("ns", "n") || MetaObjectToName(obj) != n {
		t.Fatalf("ObjectToName = %v, %v", n, err)
	}
	if _, err := ObjectToName(42); err == nil {
		t.Fatal("ObjectToName of a value without metadata succeeded")
	}
	if n, err := DeletionHandlingObjectToName(DeletedFinalStateUnknown{Key: "ns/gone"}); err != nil || n != NewObjectName("ns", "gone") {
		t.Fatalf("DeletionHandlingObjectToName(tombstone) = %v, %v", n, err)
	}
}
