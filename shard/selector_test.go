package shard

import (
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/types"
)

// The selector sends the syntax of KEP-5866: shardRange(key, start, end)
// with 16 lowercase hex digits (2^64 as 0x10000000000000000), ranges
// joined with ||; overlapping and adjacent ranges are merged.
func TestSelectorWireFormat(t *testing.T) {
	tests := []struct {
		name   string
		key    Key
		ranges []Range
		want   string
	}{
		{"lower half", UID, []Range{{0, 1 << 63}},
			"shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"},
		{"upper half ends at 2^64", UID, []Range{{Start: 1 << 63}},
			"shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')"},
		{"two ranges on namespace", Namespace, []Range{{0xc000000000000000, 0}, {0x10, 0x20}},
			"shardRange(object.metadata.namespace, '0x0000000000000010', '0x0000000000000020') || shardRange(object.metadata.namespace, '0xc000000000000000', '0x10000000000000000')"},
		{"adjacent and overlapping merged", UID, []Range{{0x20, 0x40}, {0, 0x20}, {0x30, 0x50}},
			"shardRange(object.metadata.uid, '0x0000000000000000', '0x0000000000000050')"},
		{"nothing: the smallest range", UID, nil,
			"shardRange(object.metadata.uid, '0x0000000000000000', '0x0000000000000001')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSelector(tt.key, tt.ranges...)
			if err != nil {
				t.Fatal(err)
			}
			var opts metav1.ListOptions
			s.ApplyTo(&opts)
			if opts.ShardSelector != tt.want {
				t.Errorf("ShardSelector = %q, want %q", opts.ShardSelector, tt.want)
			}
		})
	}
}

// Bad input is refused with an error naming it.
func TestNewSelectorRefusesBadInput(t *testing.T) {
	tests := []struct {
		name   string
		key    Key
		ranges []Range
		want   string
	}{
		{"unknown key", "object.metadata.name", nil, `key "object.metadata.name"`},
		{"empty range", UID, []Range{{5, 5}}, "is empty"},
		{"reversed range", UID, []Range{{6, 5}}, "is empty"},
	}
	for _, tt := range tests {
		if _, err := NewSelector(tt.key, tt.ranges...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	if _, err := Part(UID, 3, 3); err == nil || !strings.Contains(err.Error(), "part 3 of 3") {
		t.Errorf("Part(3, 3): error %v, want one naming part 3 of 3", err)
	}
}

// Contains agrees with the server's matcher (sharding's Selector.Matches
// over the selector's requirements) on every object, for both keys.
func TestSelectorContainsAgreesWithTheServer(t *testing.T) {
	for _, key := range []Key{UID, Namespace} {
		for i := range 3 {
			s, err := Part(key, i, 3)
			if err != nil {
				t.Fatal(err)
			}
			server := serverSelector(t, s)
			for j := range 2000 {
				obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
					Namespace: fmt.Sprintf("ns-%d", j%97), Name: "o", UID: types.UID(fmt.Sprintf("uid-%d", j)),
				}}
				want, err := server.Matches(obj)
				if err != nil {
					t.Fatal(err)
				}
				if got := s.Contains(obj); got != want {
					t.Fatalf("%s part %d: Contains(%s/%s) = %t, the server's matcher says %t", key, i, obj.Namespace, obj.UID, got, want)
				}
			}
		}
	}
}

// serverSelector is s as the server parses it.
func serverSelector(t *testing.T, s Selector) sharding.Selector {
	t.Helper()
	var reqs []sharding.ShardRangeRequirement
	for _, r := range s.Ranges() {
		reqs = append(reqs, sharding.ShardRangeRequirement{Key: string(s.Key()), Start: hexBound(r.Start, false), End: hexBound(r.End, r.End == 0)})
	}
	return sharding.NewSelector(reqs...)
}

// Hash is sharding's HashField.
func TestHashIsShardingsHash(t *testing.T) {
	for _, v := range []string{"", "default", "0b6f6d0e-2a4c-4c1e-9d1e-2f7f2b7e1a00"} {
		if got, want := fmt.Sprintf("%016x", Hash(v)), sharding.HashField(v); got != want {
			t.Errorf("Hash(%q) = %s, sharding.HashField = %s", v, got, want)
		}
	}
}

// The parts of n tile the hash space: consecutive, from 0 to 2^64, each
// about 1/n of it.
func TestPartsTileTheHashSpace(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 100} {
		var next uint64
		for i := range n {
			s, err := Part(UID, i, n)
			if err != nil {
				t.Fatal(err)
			}
			r := s.Ranges()
			if len(r) != 1 || r[0].Start != next {
				t.Fatalf("part %d of %d = %v, want one range starting at %#x", i, n, r, next)
			}
			next = r[0].End
			if last := i == n-1; last != (next == 0) {
				t.Fatalf("part %d of %d ends at %#x", i, n, next)
			}
		}
	}
}

// ServerApplied is true only when the list echoes the selector in its
// ShardInfo, typed or unstructured.
func TestSelectorServerApplied(t *testing.T) {
	s, err := Part(UID, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := Part(UID, 1, 2)
	typed := func(sel string) *metav1.PartialObjectMetadataList {
		l := &metav1.PartialObjectMetadataList{}
		if sel != "" {
			l.ShardInfo = &metav1.ShardInfo{Selector: sel}
		}
		return l
	}
	unstr := &unstructured.UnstructuredList{Object: map[string]any{
		"metadata": map[string]any{"shardInfo": map[string]any{"selector": s.String()}},
	}}
	cases := []struct {
		name string
		got  bool
		want bool
	}{
		{"typed list echoing the selector", s.ServerApplied(typed(s.String())), true},
		{"typed list without ShardInfo", s.ServerApplied(typed("")), false},
		{"typed list echoing another selector", s.ServerApplied(typed(other.String())), false},
		{"unstructured list echoing the selector", s.ServerApplied(unstr), true},
		{"unstructured list without ShardInfo", s.ServerApplied(&unstructured.UnstructuredList{Object: map[string]any{}}), false},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: ServerApplied = %t, want %t", c.name, c.got, c.want)
		}
	}
}
