package cache

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	benchObjects    = 100_000
	benchNamespaces = 100
)

// benchObjectSet returns n ConfigMap-like objects spread over
// benchNamespaces namespaces.
func benchObjectSet(n int) []*metav1.PartialObjectMetadata {
	objs := make([]*metav1.PartialObjectMetadata, n)
	for i := range objs {
		objs[i] = testObject(fmt.Sprintf("namespace-%03d", i%benchNamespaces), fmt.Sprintf("configmap-%06d", i), strconv.Itoa(1000+i))
	}
	return objs
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func newNamespaceIndexer() Indexer {
	return NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
}

// BenchmarkIndexerOverheadPerObject reports the heap the indexer (with the
// namespace index) holds per cached object, beyond the objects themselves.
// client-go v0.37.2's indexer measures 139 B/obj with the same objects and
// the same method (Go 1.26, amd64).
func BenchmarkIndexerOverheadPerObject(b *testing.B) {
	for b.Loop() {
		before := heapInUse()
		objs := benchObjectSet(benchObjects)
		withObjects := heapInUse()
		idx := newNamespaceIndexer()
		for _, o := range objs {
			if err := idx.Add(o); err != nil {
				b.Fatal(err)
			}
		}
		withStore := heapInUse()
		b.ReportMetric(float64(withObjects-before)/benchObjects, "objB/obj")
		b.ReportMetric(float64(withStore-withObjects)/benchObjects, "B/obj")
		runtime.KeepAlive(objs)
		runtime.KeepAlive(idx)
	}
}

// BenchmarkIndexerReplaceOverheadPerObject is the per-object overhead of a
// store filled by one Replace, the way an informer's first list fills it.
func BenchmarkIndexerReplaceOverheadPerObject(b *testing.B) {
	for b.Loop() {
		objs := benchObjectSet(benchObjects)
		list := make([]any, len(objs))
		for i, o := range objs {
			list[i] = o
		}
		withObjects := heapInUse()
		idx := newNamespaceIndexer()
		if err := idx.Replace(list, "1"); err != nil {
			b.Fatal(err)
		}
		withStore := heapInUse()
		b.ReportMetric(float64(withStore-withObjects)/benchObjects, "B/obj")
		runtime.KeepAlive(list)
		runtime.KeepAlive(idx)
	}
}

func filledIndexer(b *testing.B) (Indexer, []*metav1.PartialObjectMetadata) {
	b.Helper()
	objs := benchObjectSet(benchObjects)
	idx := newNamespaceIndexer()
	for _, o := range objs {
		if err := idx.Add(o); err != nil {
			b.Fatal(err)
		}
	}
	return idx, objs
}

// BenchmarkIndexerUpdate measures Update of existing objects whose index
// values do not change, the steady state of an informer.
func BenchmarkIndexerUpdate(b *testing.B) {
	idx, objs := filledIndexer(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := idx.Update(objs[i%len(objs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkIndexerAddDelete measures an insert followed by a delete.
func BenchmarkIndexerAddDelete(b *testing.B) {
	idx, _ := filledIndexer(b)
	extra := benchObjectSet(1000)
	for i, o := range extra {
		o.Name = fmt.Sprintf("extra-%d", i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		o := extra[i%len(extra)]
		if err := idx.Add(o); err != nil {
			b.Fatal(err)
		}
		if err := idx.Delete(o); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkIndexerGetByKey measures a key lookup.
func BenchmarkIndexerGetByKey(b *testing.B) {
	idx, objs := filledIndexer(b)
	keys := make([]string, len(objs))
	for i, o := range objs {
		keys[i], _ = MetaNamespaceKeyFunc(o)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok, _ := idx.GetByKey(keys[i%len(keys)]); !ok {
			b.Fatal("missing key")
		}
		i++
	}
}

// BenchmarkIndexerByIndex measures listing one namespace of 1000 objects.
func BenchmarkIndexerByIndex(b *testing.B) {
	idx, _ := filledIndexer(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		list, err := idx.ByIndex(NamespaceIndex, fmt.Sprintf("namespace-%03d", i%benchNamespaces))
		if err != nil || len(list) != benchObjects/benchNamespaces {
			b.Fatal(len(list), err)
		}
		i++
	}
}

// BenchmarkIndexerParallelGetWithWrites measures GetByKey from all cores
// while one goroutine keeps updating.
func BenchmarkIndexerParallelGetWithWrites(b *testing.B) {
	idx, objs := filledIndexer(b)
	keys := make([]string, len(objs))
	for i, o := range objs {
		keys[i], _ = MetaNamespaceKeyFunc(o)
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			_ = idx.Update(objs[i%len(objs)])
		}
	}()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			idx.GetByKey(keys[i%len(keys)])
			i++
		}
	})
	close(done)
	<-stopped
}
