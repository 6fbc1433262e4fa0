package conformance

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
)

// State identifies one version of one object: its UID and resourceVersion.
// The zero State stands for "absent". States are plain values, safe to
// copy and compare from any goroutine.
type State struct {
	UID             types.UID
	ResourceVersion string
}

// Absent is true for the zero State.
func (s State) Absent() bool { return s == State{} }

// String renders s as uid@rv, or "absent".
func (s State) String() string {
	if s.Absent() {
		return "absent"
	}
	return fmt.Sprintf("%s@%s", s.UID, s.ResourceVersion)
}

// StateOf returns the State of an object with metadata; it panics on
// anything else, which only a broken informer hands out.
func StateOf(obj any) State {
	m, err := meta.Accessor(obj)
	if err != nil {
		panic(fmt.Sprintf("conformance: %T has no object metadata: %v", obj, err))
	}
	return State{UID: m.GetUID(), ResourceVersion: m.GetResourceVersion()}
}

// keyOf returns the namespace/name key of an object with metadata.
func keyOf(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		panic(fmt.Sprintf("conformance: %T has no object metadata: %v", obj, err))
	}
	if m.GetNamespace() == "" {
		return m.GetName()
	}
	return m.GetNamespace() + "/" + m.GetName()
}
