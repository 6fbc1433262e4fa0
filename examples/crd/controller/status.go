package controller

import (
	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
)

// Phases a Widget's status can report, derived from its spec by
// DesiredStatus.
const (
	// PhaseEmpty is the phase of a Widget whose spec.size is 0.
	PhaseEmpty = "Empty"
	// PhaseReady is the phase of a Widget with a positive spec.size.
	PhaseReady = "Ready"
	// PhaseInvalid is the phase of a Widget with a negative spec.size.
	PhaseInvalid = "Invalid"
)

// DesiredStatus returns the status the controller writes for w: the
// generation it reflects (metadata.generation) and a phase derived from
// spec.size. It depends on w only, does not modify it and is safe for
// concurrent use.
func DesiredStatus(w *stablev1.Widget) stablev1.WidgetStatus {
	phase := PhaseReady
	switch {
	case w.Spec.Size == 0:
		phase = PhaseEmpty
	case w.Spec.Size < 0:
		phase = PhaseInvalid
	}
	return stablev1.WidgetStatus{
		ObservedGeneration: w.Generation,
		Phase:              phase,
	}
}
