package controller

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
)

func TestDesiredStatusFollowsGenerationAndSize(t *testing.T) {
	tests := []struct {
		name       string
		generation int64
		size       int32
		want       stablev1.WidgetStatus
	}{
		{"zero size is empty", 1, 0, stablev1.WidgetStatus{ObservedGeneration: 1, Phase: PhaseEmpty}},
		{"positive size is ready", 3, 7, stablev1.WidgetStatus{ObservedGeneration: 3, Phase: PhaseReady}},
		{"negative size is invalid", 2, -1, stablev1.WidgetStatus{ObservedGeneration: 2, Phase: PhaseInvalid}},
		{"generation is copied verbatim", 42, 1, stablev1.WidgetStatus{ObservedGeneration: 42, Phase: PhaseReady}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &stablev1.Widget{
				ObjectMeta: metav1.ObjectMeta{Name: "w", Generation: tt.generation},
				Spec:       stablev1.WidgetSpec{Size: tt.size, Color: "red"},
				Status:     stablev1.WidgetStatus{ObservedGeneration: 99, Phase: "Stale"},
			}
			before := w.DeepCopy()
			if got := DesiredStatus(w); got != tt.want {
				t.Errorf("DesiredStatus = %+v, want %+v", got, tt.want)
			}
			if w.Status != before.Status || w.Generation != before.Generation {
				t.Errorf("DesiredStatus modified its argument: %+v", w)
			}
		})
	}
}
