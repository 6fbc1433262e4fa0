package jsonwatch

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
)

// event decodes one JSON frame, a metav1.WatchEvent: with the generated
// decoder when the frame is an event of T whose decoding is certainly
// client-go's (jsondecode.DecodeEvent, then the object's kind is T's),
// else with client-go's decoders (a Status on an ERROR event, a
// malformed frame, an object of another kind), for client-go's object
// or error. An object the generated decoder decoded leaves compact when
// the informer enabled d.decoded (compact.Decoded).
func (d *decoding[T, PT]) event(frame []byte) (watch.Event, error) {
	obj := PT(new(T))
	compacting := d.decodeCompact != nil && d.decoded.Enabled()
	var t watch.EventType
	var ok bool
	if compacting {
		d.asked = askedPrevious{}
		t, ok = d.decodeCompact(frame, (*T)(obj), d.previousFn)
	} else {
		t, ok = d.decode(frame, (*T)(obj))
	}
	if ok && t != watch.Error {
		// apimachinery finds an object's kind as GroupVersionKind
		// parses it; WithoutVersionDecoder then clears it.
		if kind := obj.GetObjectKind(); kind.GroupVersionKind() == d.kind {
			kind.SetGroupVersionKind(schema.GroupVersionKind{})
			switch {
			case t == watch.Bookmark:
			case compacting && t == watch.Added && d.asked.ok && sameVersion(obj, d.asked.hint):
				// An initial event of a watch list at the cached
				// version: the informer keeps the cached object and
				// never takes this one, which would otherwise stay
				// the key's pending hint.
			case compacting:
				d.adopt(obj, t == watch.Deleted) // decoded compact
			default:
				d.decoded.Compact(obj, t == watch.Deleted) // as the informer would
			}
			return watch.Event{Type: t, Object: obj}, nil
		}
	}
	var got metav1.WatchEvent
	res, _, err := d.json.StreamSerializer.Serializer.Decode(frame, nil, &got)
	if err != nil {
		return watch.Event{}, err
	}
	return watchEvent(res, &got, d.objects)
}

// decodeEvent decodes the next event of events, whose objects objects
// decodes: client-go's restclientwatch.Decoder.Decode.
func decodeEvent(events streaming.Decoder, objects runtime.Decoder) (watch.Event, error) {
	var got metav1.WatchEvent
	res, _, err := events.Decode(nil, &got)
	if err != nil {
		return watch.Event{}, err
	}
	return watchEvent(res, &got, objects)
}

// watchEvent is the rest of restclientwatch.Decoder.Decode once the
// event's envelope decoded into got (res is what the decoder returned).
func watchEvent(res runtime.Object, got *metav1.WatchEvent, objects runtime.Decoder) (watch.Event, error) {
	if res != got {
		return watch.Event{}, fmt.Errorf("unable to decode to metav1.WatchEvent")
	}
	switch t := watch.EventType(got.Type); t {
	case watch.Added, watch.Modified, watch.Deleted, watch.Error, watch.Bookmark:
		obj, err := runtime.Decode(objects, got.Object.Raw)
		if err != nil {
			return watch.Event{}, fmt.Errorf("unable to decode watch event: %v", err)
		}
		return watch.Event{Type: t, Object: obj}, nil
	default:
		return watch.Event{}, fmt.Errorf("got invalid watch event type: %v", got.Type)
	}
}
