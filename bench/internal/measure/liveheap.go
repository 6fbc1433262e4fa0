package measure

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
	"github.com/informer-gen/informer-gen/bench/internal/source"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
)

// Kind is a type of object whose live heap per cached object LiveHeap
// measures.
type Kind struct {
	// Name names the kind in benchmark and report names.
	Name string
	// Example is an empty object of the kind: the informers' type.
	Example k8sruntime.Object
	// Encode returns the JSON of each object of the dataset cfg sizes.
	Encode func(cfg dataset.Config) ([][]byte, error)
	// Decode returns a list of the objects, each decoded from its own
	// bytes as an API client decodes a list response: no string or map
	// of one object is shared with another.
	Decode func(items [][]byte) (k8sruntime.Object, error)
}

// ConfigMaps are the ConfigMaps of the other measurements (dataset.List).
var ConfigMaps = Kind{
	Name:    "ConfigMap",
	Example: &corev1.ConfigMap{},
	Encode:  func(cfg dataset.Config) ([][]byte, error) { return encodeEach(cfg.List().Items) },
	Decode: func(items [][]byte) (k8sruntime.Object, error) {
		objs, err := decodeEach[corev1.ConfigMap](items)
		return &corev1.ConfigMapList{TypeMeta: metav1.TypeMeta{Kind: "ConfigMapList", APIVersion: "v1"},
			ListMeta: metav1.ListMeta{ResourceVersion: fmt.Sprint(len(objs))}, Items: objs}, err
	},
}

// Widgets are examples/crd's custom resource (dataset.Widgets).
var Widgets = Kind{
	Name:    "Widget",
	Example: &stablev1.Widget{},
	Encode:  func(cfg dataset.Config) ([][]byte, error) { return encodeEach(cfg.Widgets()) },
	Decode: func(items [][]byte) (k8sruntime.Object, error) {
		objs, err := decodeEach[stablev1.Widget](items)
		return &stablev1.WidgetList{TypeMeta: metav1.TypeMeta{Kind: "WidgetList", APIVersion: stablev1.SchemeGroupVersion.String()},
			ListMeta: metav1.ListMeta{ResourceVersion: fmt.Sprint(len(objs))}, Items: objs}, err
	},
}

// Kinds are the kinds LiveHeap is reported for.
var Kinds = []Kind{ConfigMaps, Widgets}

func encodeEach[T any](objs []T) ([][]byte, error) {
	out := make([][]byte, len(objs))
	for i := range objs {
		b, err := json.Marshal(&objs[i])
		if err != nil {
			return nil, fmt.Errorf("encode object %d: %w", i, err)
		}
		out[i] = b
	}
	return out, nil
}

// decodeEach decodes every item into its own object with the decoder of
// apimachinery's JSON serializer.
func decodeEach[T any](items [][]byte) ([]T, error) {
	objs := make([]T, len(items))
	for i, b := range items {
		if err := kjson.UnmarshalCaseSensitivePreserveInts(b, &objs[i]); err != nil {
			return nil, fmt.Errorf("decode object %d: %w", i, err)
		}
	}
	return objs, nil
}

// LiveHeap returns the live heap per cached object of subj's informer
// once it listed the objects of kind that cfg sizes, each decoded from its
// own JSON: the heap after sync (two GCs) minus the heap before the list
// was decoded, over the number of objects. It counts the objects and
// everything the cache keeps for them; the list itself is handed out once
// and forgotten (source.NewReleasing), as a decoded list response is.
func LiveHeap(ctx context.Context, cfg dataset.Config, kind Kind, subj subject.Subject) (float64, error) {
	items, err := kind.Encode(cfg)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", kind.Name, err)
	}
	before := heapAlloc()
	list, err := kind.Decode(items)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", kind.Name, err)
	}
	inf := subj.Typed(source.NewReleasing(list), kind.Example)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(ctx)
	}()
	defer func() { cancel(); <-done }()
	if err := waitFor(ctx, "synced", inf.HasSynced); err != nil {
		return 0, err
	}
	if n := inf.Len(); n != len(items) {
		return 0, fmt.Errorf("%s: %s cached %d objects, want %d", subj.Name, kind.Name, n, len(items))
	}
	after := heapAlloc()
	peak(subj.Name + "-liveheap-" + kind.Name)
	runtime.KeepAlive(items)
	return float64(after-before) / float64(len(items)), nil
}
