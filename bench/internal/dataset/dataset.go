// Package dataset builds the ConfigMaps both informers are fed: an initial
// list and a slice of update events, deterministic for a given Config so
// that every run of every implementation sees identical input.
// It also builds the real-cluster-shaped Pods (PodJSON) that the
// compaction and decoding benchmarks decode.
package dataset

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// Config sizes a dataset.
type Config struct {
	// Objects is the number of ConfigMaps in the initial list.
	Objects int
	// Namespaces is the number of namespaces they are spread over
	// (object i lives in namespace i mod Namespaces).
	Namespaces int
	// Updates is the number of update events; update u modifies object
	// u mod Objects.
	Updates int
}

// Full is the size of the published benchmarks.
var Full = Config{Objects: 100_000, Namespaces: 100, Updates: 200_000}

// Small is the size of the smoke tests.
var Small = Config{Objects: 1_000, Namespaces: 10, Updates: 2_000}

// namePrefix starts every object's name; the rest is its decimal index.
const namePrefix = "cm-"

// Name is the name of object i. Names are unique across namespaces.
func Name(i int) string { return namePrefix + strconv.Itoa(i) }

// Namespace is the name of namespace n.
func Namespace(n int) string { return "ns-" + strconv.Itoa(n) }

// Index returns the object index encoded in name, or -1 when name was not
// made by Name. It does not allocate.
func Index(name string) int {
	if len(name) <= len(namePrefix) || name[:len(namePrefix)] != namePrefix {
		return -1
	}
	n := 0
	for i := len(namePrefix); i < len(name); i++ {
		c := name[i]
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// Version parses a resourceVersion made by this package (a decimal
// number); it returns -1 for anything else. It does not allocate.
func Version(rv string) int64 {
	if rv == "" {
		return -1
	}
	var n int64
	for i := 0; i < len(rv); i++ {
		c := rv[i]
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// object returns version rv of object i, with its own maps, as a decoder
// would allocate it.
func (c Config) object(i int, rv int64) corev1.ConfigMap {
	v := strconv.FormatInt(rv, 10)
	return corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name:            Name(i),
			Namespace:       Namespace(i % c.Namespaces),
			UID:             types.UID("00000000-0000-0000-0000-" + strconv.Itoa(1_000_000_000_000+i)),
			ResourceVersion: v,
			Labels:          map[string]string{"app": "bench"},
		},
		Data: map[string]string{"value": v},
	}
}

// List returns the initial list: object i at resourceVersion i+1, the list
// at resourceVersion Objects.
func (c Config) List() *corev1.ConfigMapList {
	l := &corev1.ConfigMapList{
		TypeMeta: metav1.TypeMeta{Kind: "ConfigMapList", APIVersion: "v1"},
		ListMeta: metav1.ListMeta{ResourceVersion: strconv.Itoa(c.Objects)},
		Items:    make([]corev1.ConfigMap, c.Objects),
	}
	for i := range l.Items {
		l.Items[i] = c.object(i, int64(i+1))
	}
	return l
}

// Events returns the update events, each with its own freshly allocated
// object: update u sets object u mod Objects to resourceVersion
// Objects+u+1.
func (c Config) Events() []watch.Event {
	evs := make([]watch.Event, c.Updates)
	for u := range evs {
		obj := c.object(u%c.Objects, int64(c.Objects+u+1))
		evs[u] = watch.Event{Type: watch.Modified, Object: &obj}
	}
	return evs
}

// FinalVersions returns, for each object, the resourceVersion it has once
// every update has been applied.
func (c Config) FinalVersions() []int64 {
	final := make([]int64, c.Objects)
	for i := range final {
		final[i] = int64(i + 1)
	}
	for u := 0; u < c.Updates; u++ {
		final[u%c.Objects] = int64(c.Objects + u + 1)
	}
	return final
}

// Updated is the number of objects that at least one update modifies.
func (c Config) Updated() int { return min(c.Objects, c.Updates) }
