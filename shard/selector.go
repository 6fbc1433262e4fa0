package shard

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"math/bits"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/sharding"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// Key is the object field whose hash places an object in the hash space,
// in the shard selector's syntax.
type Key string

const (
	// UID hashes metadata.uid, the default: objects spread evenly
	// whatever their namespaces.
	UID Key = "object.metadata.uid"
	// Namespace hashes metadata.namespace: a namespace's objects are all
	// in one shard.
	Namespace Key = "object.metadata.namespace"
)

// Range is the part [Start, End) of the 64-bit hash space. End 0 stands
// for 2^64, the end of the space, so Range{} is the whole space and
// Range{Start: 1 << 63} its upper half.
type Range struct {
	Start, End uint64
}

// end is r's exclusive end, 2^64 as (0, true).
func (r Range) end() (uint64, bool) { return r.End, r.End == 0 }

// Contains reports whether hash h is in r.
func (r Range) Contains(h uint64) bool {
	end, top := r.end()
	return h >= r.Start && (top || h < end)
}

func (r Range) String() string {
	return fmt.Sprintf("[%s, %s)", hexBound(r.Start, false), hexBound(r.End, r.End == 0))
}

// hexBound is a bound in the selector's syntax: 0x and 16 lowercase hex
// digits, or 0x10000000000000000 for 2^64.
func hexBound(v uint64, top bool) string {
	if top {
		return "0x10000000000000000"
	}
	return fmt.Sprintf("0x%016x", v)
}

// Selector is a shard: the objects whose Key hashes (64-bit FNV-1a, as
// k8s.io/apimachinery/pkg/sharding) into one of its ranges. It implements
// cache.Shard and cache.ShardServerApplied; its zero value holds nothing.
// Make one with NewSelector or Part. It is immutable and safe for
// concurrent use.
type Selector struct {
	key    Key
	ranges []Range // sorted, disjoint, not adjacent
	// selector is the ShardSelector sent to the server.
	selector string
}

var (
	_ cache.Shard              = Selector{}
	_ cache.ShardServerApplied = Selector{}
)

// NewSelector returns the shard of the objects whose key hashes into one
// of ranges; overlapping and adjacent ranges are merged. No range holds
// nothing.
func NewSelector(key Key, ranges ...Range) (Selector, error) {
	if key != UID && key != Namespace {
		return Selector{}, fmt.Errorf("shard: key %q: want %q or %q", key, UID, Namespace)
	}
	for _, r := range ranges {
		if end, top := r.end(); !top && r.Start >= end {
			return Selector{}, fmt.Errorf("shard: range %v is empty: its start must be below its end (End 0 stands for 2^64)", r)
		}
	}
	s := Selector{key: key, ranges: merge(ranges)}
	s.selector = s.wire()
	return s, nil
}

// merge sorts ranges and merges those that overlap or touch.
func merge(ranges []Range) []Range {
	rs := slices.Clone(ranges)
	slices.SortFunc(rs, func(a, b Range) int { return cmp.Compare(a.Start, b.Start) })
	var out []Range
	for _, r := range rs {
		if n := len(out); n > 0 {
			last := &out[n-1]
			lastEnd, lastTop := last.end()
			if lastTop || r.Start <= lastEnd {
				if end, top := r.end(); !lastTop && (top || end > lastEnd) {
					last.End = r.End
				}
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// Part returns the i-th (from 0) of n equal parts of the hash space of
// key: the static shard of replica i of n.
func Part(key Key, i, n int) (Selector, error) {
	if n < 1 || i < 0 || i >= n {
		return Selector{}, fmt.Errorf("shard: part %d of %d: want 0 <= part < parts", i, n)
	}
	return NewSelector(key, Range{Start: partBound(i, n), End: partBound(i+1, n)})
}

// partBound is the start of part i of n: floor(i * 2^64 / n), and 0
// (2^64) for i = n.
func partBound(i, n int) uint64 {
	if i == n {
		return 0
	}
	q, _ := bits.Div64(uint64(i), 0, uint64(n))
	return q
}

// Key is the field the selector hashes.
func (s Selector) Key() Key { return s.key }

// Ranges returns the selector's ranges, sorted and disjoint.
func (s Selector) Ranges() []Range { return slices.Clone(s.ranges) }

// String is the ShardSelector the selector sends.
func (s Selector) String() string { return s.selector }

// wire is the ShardSelector of s in the syntax of
// k8s.io/apimachinery/pkg/sharding. A selector without ranges matches
// nothing, which the syntax cannot say: it sends the smallest range there
// is, and Contains drops what the server sends for it.
func (s Selector) wire() string {
	ranges := s.ranges
	if len(ranges) == 0 {
		ranges = []Range{{Start: 0, End: 1}}
	}
	reqs := make([]sharding.ShardRangeRequirement, len(ranges))
	for i, r := range ranges {
		reqs[i] = sharding.ShardRangeRequirement{Key: string(s.key), Start: hexBound(r.Start, false), End: hexBound(r.End, r.End == 0)}
	}
	return sharding.NewSelector(reqs...).String()
}

// ApplyTo sets opts.ShardSelector to the selector.
func (s Selector) ApplyTo(opts *metav1.ListOptions) {
	if s.key == "" {
		// The zero Selector: hold nothing, hash on UID.
		s = Selector{key: UID}
		s.selector = s.wire()
	}
	opts.ShardSelector = s.selector
}

// Contains reports whether obj's key hashes into one of the ranges.
func (s Selector) Contains(obj metav1.Object) bool {
	if len(s.ranges) == 0 {
		return false
	}
	value := string(obj.GetUID())
	if s.key == Namespace {
		value = obj.GetNamespace()
	}
	h := Hash(value)
	for _, r := range s.ranges {
		if r.Contains(h) {
			return true
		}
	}
	return false
}

// Hash is the 64-bit FNV-1a hash of value, the hash of
// k8s.io/apimachinery/pkg/sharding (HashField gives it in hex).
func Hash(value string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(value))
	return h.Sum64()
}

// ServerApplied reports whether list, one page of a LIST sent with the
// selector, echoes it in its ListMeta.ShardInfo: the server filtered it.
func (s Selector) ServerApplied(list runtime.Object) bool {
	got, err := echoedSelector(list)
	return err == nil && got != "" && got == s.String()
}

// errNoListMeta reports a list without list metadata.
var errNoListMeta = errors.New("shard: the list has no list metadata")

// echoedSelector is the shard selector list's ShardInfo echoes, "" when
// none.
func echoedSelector(list runtime.Object) (string, error) {
	if u, ok := list.(*unstructured.UnstructuredList); ok {
		sel, _, err := unstructured.NestedString(u.Object, "metadata", "shardInfo", "selector")
		return sel, err
	}
	m, err := meta.ListAccessor(list)
	if err != nil {
		return "", errNoListMeta
	}
	sharded, ok := m.(metav1.ShardedListInterface)
	if !ok || sharded.GetShardInfo() == nil {
		return "", nil
	}
	return sharded.GetShardInfo().Selector, nil
}
