package dataset

import (
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
)

// The values Widgets draw their fields from: a custom resource's spec and
// status repeat a few values over many objects, as a ConfigMap's labels do.
var (
	widgetColors = []string{"red", "green", "blue", "amber", "violet"}
	widgetTags   = [][]string{{"edge"}, {"edge", "canary"}, {"core", "stateful", "backup"}, nil}
	widgetPhases = []string{"Pending", "Ready", "Degraded"}
	widgetTiers  = []string{"frontend", "backend", "batch"}
)

// Widgets returns Objects Widgets of examples/crd (stable.example.com/v1)
// spread over the namespaces like the ConfigMaps: object i is named
// "widget-<i>", at resourceVersion i+1.
func (c Config) Widgets() []stablev1.Widget {
	ws := make([]stablev1.Widget, c.Objects)
	for i := range ws {
		ws[i] = stablev1.Widget{
			TypeMeta: metav1.TypeMeta{Kind: "Widget", APIVersion: stablev1.SchemeGroupVersion.String()},
			ObjectMeta: metav1.ObjectMeta{
				Name:            "widget-" + strconv.Itoa(i),
				Namespace:       Namespace(i % c.Namespaces),
				UID:             types.UID("00000000-0000-0000-0001-" + strconv.Itoa(1_000_000_000_000+i)),
				ResourceVersion: strconv.Itoa(i + 1),
				Generation:      int64(1 + i%4),
				Labels:          map[string]string{"app": "bench", "tier": widgetTiers[i%len(widgetTiers)]},
			},
			Spec: stablev1.WidgetSpec{
				Size:  int32(1 + i%10),
				Color: widgetColors[i%len(widgetColors)],
				Tags:  widgetTags[i%len(widgetTags)],
			},
			Status: stablev1.WidgetStatus{ObservedGeneration: int64(1 + i%4), Phase: widgetPhases[i%len(widgetPhases)]},
		}
	}
	return ws
}
