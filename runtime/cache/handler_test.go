package cache

import (
	"reflect"
	"testing"
)

// callLog records untyped handler calls, one line each.
type callLog []string

func (c *callLog) detailed() ResourceEventHandlerDetailedFuncs {
	return ResourceEventHandlerDetailedFuncs{
		AddFunc: func(o any, initial bool) {
			*c = append(*c, "add "+objName(o.(object))+map[bool]string{true: " initial", false: ""}[initial])
		},
		UpdateFunc: func(old, o any) {
			oldName := "<nil>"
			if old != nil {
				oldName = objName(old.(object))
			}
			*c = append(*c, "update "+oldName+" -> "+objName(o.(object)))
		},
		DeleteFunc: func(o any) {
			if d, ok := o.(DeletedFinalStateUnknown); ok {
				*c = append(*c, "delete tombstone "+d.Key)
				return
			}
			*c = append(*c, "delete "+objName(o.(object)))
		},
		ResyncFunc: func(o any) { *c = append(*c, "resync "+objName(o.(object))) },
	}
}

func TestResourceEventHandlerFuncsHaveClientGosShape(t *testing.T) {
	a := testObject("ns", "a", "1")
	var got callLog
	h := ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { got = append(got, "add "+objName(o.(object))) },
		UpdateFunc: func(old, o any) { got = append(got, "update "+objName(old.(object))+" -> "+objName(o.(object))) },
	}
	h.OnAdd(a, true)
	h.OnResync(a) // no ResyncFunc: an update of the object to itself
	h.OnDelete(a) // no DeleteFunc: skipped
	if want := (callLog{"add ns/a@1", "update ns/a@1 -> ns/a@1"}); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls = %q, want %q", got, want)
	}

	got = nil
	d := got.detailed()
	d.OnAdd(a, true)
	d.OnResync(a)
	if want := (callLog{"add ns/a@1 initial", "resync ns/a@1"}); !reflect.DeepEqual(got, want) {
		t.Fatalf("detailed calls = %q, want %q", got, want)
	}
}

func TestFilteringHandlerTranslatesUpdatesAcrossTheFilter(t *testing.T) {
	in, out := testObject("keep", "a", "1"), testObject("drop", "a", "2")
	tomb := DeletedFinalStateUnknown{Key: "keep/a", Obj: in}
	tests := []struct {
		name    string
		deliver func(h FilteringResourceEventHandler)
		want    callLog
	}{
		{"add accepted", func(h FilteringResourceEventHandler) { h.OnAdd(in, true) }, callLog{"add keep/a@1 initial"}},
		{"add rejected", func(h FilteringResourceEventHandler) { h.OnAdd(out, false) }, nil},
		{"update inside", func(h FilteringResourceEventHandler) { h.OnUpdate(in, in) }, callLog{"update keep/a@1 -> keep/a@1"}},
		{"update into the set is an add", func(h FilteringResourceEventHandler) { h.OnUpdate(out, in) }, callLog{"add keep/a@1"}},
		{"update out of the set is a delete", func(h FilteringResourceEventHandler) { h.OnUpdate(in, out) }, callLog{"delete keep/a@1"}},
		{"update outside", func(h FilteringResourceEventHandler) { h.OnUpdate(out, out) }, nil},
		{"latest-only update accepted", func(h FilteringResourceEventHandler) { h.OnUpdate(nil, in) }, callLog{"update <nil> -> keep/a@1"}},
		{"latest-only update rejected is a delete", func(h FilteringResourceEventHandler) { h.OnUpdate(nil, out) }, callLog{"delete drop/a@2"}},
		{"tombstone accepted", func(h FilteringResourceEventHandler) { h.OnDelete(tomb) }, callLog{"delete tombstone keep/a"}},
		{"resync accepted", func(h FilteringResourceEventHandler) { h.OnResync(in) }, callLog{"resync keep/a@1"}},
		{"resync rejected", func(h FilteringResourceEventHandler) { h.OnResync(out) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got callLog
			h := FilteringResourceEventHandler{
				FilterFunc: func(o any) bool {
					if d, ok := o.(DeletedFinalStateUnknown); ok {
						o = d.Obj
					}
					return o.(object).Namespace == "keep"
				},
				Handler: got.detailed(),
			}
			tt.deliver(h)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("calls = %q, want %q", got, tt.want)
			}
		})
	}
}
