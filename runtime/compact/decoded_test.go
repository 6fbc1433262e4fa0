package compact

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type decodedObj struct{ key, value string }

// decodedInformer is the informer side of a Decoded: a cache of objects
// by key, and the compactions it was asked for.
type decodedInformer struct {
	cache     map[string]any
	compacted []decodedCall
}

type decodedCall struct{ obj, old any }

func (i *decodedInformer) enable(c *Decoded) {
	c.Enable(func(obj any) (string, error) {
		if o := obj.(*decodedObj); o.key != "" {
			return o.key, nil
		}
		return "", errors.New("no key")
	}, func(key string) any {
		if old, ok := i.cache[key]; ok {
			return old
		}
		return nil
	}, func(obj, old any) { i.compacted = append(i.compacted, decodedCall{obj, old}) }, false)
}

// decodedCase decodes objects (Compact) in run, which returns the object
// the informer then prepares and the hint it has; want is Compacted's
// answer.
type decodedCase struct {
	name string
	run  func(d *Decoded) (obj, hint any)
	want bool
}

// cachedA is the cached object of key "a" in TestDecodedCompactsAgainstTheHintTheInformerWillGive.
var cachedA = &decodedObj{key: "a", value: "cached"}

var decodedCases = []decodedCase{
	{"a new key: no hint", func(d *Decoded) (any, any) {
		o := &decodedObj{key: "b"}
		d.Compact(o, false)
		return o, nil
	}, true},
	{"a cached key: the cached version", func(d *Decoded) (any, any) {
		o := &decodedObj{key: "a"}
		d.Compact(o, false)
		return o, cachedA
	}, true},
	{"a key whose previous event is not queued yet: that event's object", func(d *Decoded) (any, any) {
		prev := &decodedObj{key: "a", value: "in flight"}
		d.Compact(prev, false)
		o := &decodedObj{key: "a"}
		d.Compact(o, false)
		return o, prev
	}, true},
	{"a key whose previous event the informer took but may not have queued: that event's object", func(d *Decoded) (any, any) {
		prev := &decodedObj{key: "a", value: "taken"}
		d.Compact(prev, false)
		d.Compacted(prev, cachedA)
		o := &decodedObj{key: "a"}
		d.Compact(o, false)
		return o, prev
	}, true},
	{"after a deletion the informer took: no hint", func(d *Decoded) (any, any) {
		gone := &decodedObj{key: "a"}
		d.Compact(gone, true)
		d.Compacted(gone, cachedA)
		o := &decodedObj{key: "a"}
		d.Compact(o, false)
		return o, nil
	}, true},
	{"after a deletion in flight: no hint", func(d *Decoded) (any, any) {
		d.Compact(&decodedObj{key: "a"}, true)
		o := &decodedObj{key: "a"}
		d.Compact(o, false)
		return o, nil
	}, true},
	{"another hint at the informer (a relist in between): compacted again", func(d *Decoded) (any, any) {
		o := &decodedObj{key: "a"}
		d.Compact(o, false)
		return o, &decodedObj{key: "a", value: "relisted"}
	}, false},
	{"an object the decoder did not compact", func(d *Decoded) (any, any) {
		d.Compact(&decodedObj{key: "a"}, false)
		return &decodedObj{key: "a"}, cachedA
	}, false},
	{"an object without a key is left to the informer", func(d *Decoded) (any, any) {
		o := &decodedObj{}
		d.Compact(o, false)
		return o, nil
	}, false},
}

func TestDecodedCompactsAgainstTheHintTheInformerWillGive(t *testing.T) {
	for _, c := range decodedCases {
		t.Run(c.name, func(t *testing.T) {
			inf := &decodedInformer{cache: map[string]any{"a": cachedA}}
			d := &Decoded{}
			inf.enable(d)
			obj, hint := c.run(d)
			if got := d.Compacted(obj, hint); got != c.want {
				t.Fatalf("Compacted = %v, want %v", got, c.want)
			}
			if d.Compacted(obj, hint) {
				t.Error("Compacted is true a second time for one object")
			}
			if c.want {
				last := inf.compacted[len(inf.compacted)-1]
				if last.obj != obj || last.old != hint {
					t.Errorf("compacted %v against %v, want against %v", last.obj, last.old, hint)
				}
			}
		})
	}
}

func TestDecodedDoesNothingUntilEnabled(t *testing.T) {
	var nilDecoded *Decoded
	nilDecoded.Compact(&decodedObj{key: "a"}, false)
	if nilDecoded.Compacted(&decodedObj{key: "a"}, nil) || nilDecoded.Enabled() {
		t.Fatal("a nil Decoded compacted")
	}
	d := &Decoded{}
	o := &decodedObj{key: "a"}
	d.Compact(o, false)
	if d.Compacted(o, nil) || d.Enabled() {
		t.Fatal("a Decoded compacted before Enable")
	}
}

func TestDecodedForgetsTheOldestObjects(t *testing.T) {
	inf := &decodedInformer{cache: map[string]any{}}
	d := &Decoded{}
	inf.enable(d)
	first := &decodedObj{key: "first"}
	d.Compact(first, false)
	for i := range decodedSlots {
		d.Compact(&decodedObj{key: string(rune('b' + i))}, false)
	}
	if d.Compacted(first, nil) {
		t.Fatalf("an object %d compactions old is still remembered; %d are", decodedSlots, decodedSlots)
	}
}

// With stripManagedFields, every object a decoder hands over, whichever
// way, has its managedFields cleared before it is compacted and
// remembered as the next object's hint: the informer's own transform
// then finds them gone and writes nothing.
func TestDecodedStripsTheManagedFieldsOfEveryObjectItHandsOver(t *testing.T) {
	key := func(obj any) (string, error) { return obj.(*metav1.PartialObjectMetadata).Name, nil }
	hint := func(string) any { return nil }
	size := unsafe.Sizeof(metav1.PartialObjectMetadata{})
	for _, c := range []struct {
		name    string
		handOff func(d *Decoded, o *metav1.PartialObjectMetadata)
	}{
		{"Compact", func(d *Decoded, o *metav1.PartialObjectMetadata) { d.Compact(o, false) }},
		{"Compact of a deletion", func(d *Decoded, o *metav1.PartialObjectMetadata) { d.Compact(o, true) }},
		{"Adopt", func(d *Decoded, o *metav1.PartialObjectMetadata) { d.Adopt(o, "a", nil, false) }},
		{"Adopt of an object whose key changed", func(d *Decoded, o *metav1.PartialObjectMetadata) { d.Adopt(o, "b", nil, false) }},
		{"AdoptCopied", func(d *Decoded, o *metav1.PartialObjectMetadata) { d.AdoptCopied(o, size, "a", nil) }},
	} {
		for _, strip := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, stripping %v", c.name, strip), func(t *testing.T) {
				var compactedWith []metav1.ManagedFieldsEntry
				d := &Decoded{}
				d.Enable(key, hint, func(obj, _ any) { compactedWith = obj.(*metav1.PartialObjectMetadata).ManagedFields }, strip)
				mf := []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}
				o := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "a", ManagedFields: mf}}
				c.handOff(d, o)
				if got := o.ManagedFields != nil; got == strip || d.StripsManagedFields() != strip {
					t.Errorf("handed over with managedFields %v (StripsManagedFields %v), want them stripped: %v", o.ManagedFields, d.StripsManagedFields(), strip)
				}
				if strip && compactedWith != nil {
					t.Errorf("compacted with managedFields %v, want them stripped first", compactedWith)
				}
			})
		}
	}
}

// A session (Begin) forgets what earlier sessions handed over: their
// objects are no hint for its objects, and an object an earlier session
// hands over after it began is not remembered (the informer compacts
// it, should it take it). Within a session, hints are as Decoded's.
func TestDecodedSessionForgetsWhatEarlierSessionsHandedOver(t *testing.T) {
	for _, c := range decodedSessionCases {
		t.Run(c.name, func(t *testing.T) {
			inf := &decodedInformer{cache: map[string]any{"a": cachedA}}
			d := &Decoded{}
			inf.enable(d)
			if got := c.run(d); got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

var decodedSessionCases = []struct {
	name string
	run  func(d *Decoded) bool
	want bool
}{
	{"an object of the stream before is no hint: the informer's is", func(d *Decoded) bool {
		first := d.Begin()
		first.Compact(&decodedObj{key: "a", value: "never taken"}, false)
		hint, _, _ := d.Begin().Previous(&decodedObj{key: "a"})
		return hint == cachedA
	}, true},
	{"an object of this stream is the hint of its key's next", func(d *Decoded) bool {
		s := d.Begin()
		prev := &decodedObj{key: "a", value: "in flight"}
		s.Compact(prev, false)
		hint, _, _ := s.Previous(&decodedObj{key: "a"})
		return hint == prev
	}, true},
	{"an object an earlier stream hands over late is not remembered", func(d *Decoded) bool {
		old := d.Begin()
		d.Begin()
		late := &decodedObj{key: "a"}
		old.Compact(late, false)
		return d.Compacted(late, cachedA)
	}, false},
	{"an earlier stream asking for a hint gets the informer's", func(d *Decoded) bool {
		old := d.Begin()
		s := d.Begin()
		s.Compact(&decodedObj{key: "a", value: "new stream"}, false)
		hint, _, _ := old.Previous(&decodedObj{key: "a"})
		return hint == cachedA
	}, true},
}

// Take gives the informer the object to compact: the decoder's own when
// the decoder compacted it against the informer's hint (nothing left to
// do), a deep copy when the decoder handed it over against another hint
// (the decoder may still read the original as the hint of its key's next
// object), which is then no hint for that next object.
func TestDecodedTakeCopiesWhatADecoderHandedOverAgainstAnotherHint(t *testing.T) {
	cached := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "a", ResourceVersion: "1"}}
	informersHint := func(string) any { return cached }
	key := func(obj any) (string, error) { return obj.(*metav1.PartialObjectMetadata).Name, nil }
	for _, c := range []struct {
		name                   string
		hint                   any // the informer's
		wantCompacted, wantOwn bool
	}{
		{"the hint it was compacted against: taken as it is", cached, true, true},
		{"another hint: a copy to compact", &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "a", ResourceVersion: "relisted"}}, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &Decoded{}
			d.Enable(key, informersHint, func(any, any) {}, false)
			s := d.Begin()
			o := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "a", ResourceVersion: "2"}}
			s.Compact(o, false)
			taken, compacted := d.Take(o, c.hint)
			if compacted != c.wantCompacted || (taken == any(o)) != c.wantOwn || !reflect.DeepEqual(taken, o) {
				t.Fatalf("Take = %p, %v; want compacted %v, the decoder's own object (%p) %v, an equal one", taken, compacted, c.wantCompacted, o, c.wantOwn)
			}
			next, _, _ := s.Previous(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "a"}})
			if wantNext := map[bool]any{true: o, false: cached}[c.wantOwn]; next != wantNext {
				t.Errorf("the next object's hint is %p, want %p", next, wantNext)
			}
		})
	}
}
