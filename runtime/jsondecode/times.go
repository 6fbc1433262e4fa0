package jsondecode

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Time decodes a metav1.Time as its UnmarshalJSON does (null is the zero
// time; a string is parsed as RFC 3339, in the local zone), without
// decoding the string a second time by reflection.
func Time(d *Decoder, p *metav1.Time) { decodeTime(d, &p.Time, time.RFC3339) }

// MicroTime decodes a metav1.MicroTime as its UnmarshalJSON does.
func MicroTime(d *Decoder, p *metav1.MicroTime) { decodeTime(d, &p.Time, metav1.RFC3339Micro) }

// decodeTime decodes a time in layout, as metav1's times do.
func decodeTime(d *Decoder, p *time.Time, layout string) {
	if d.Null() {
		*p = time.Time{}
		return
	}
	b, ok := d.stringBytes()
	if !ok {
		return
	}
	t, err := time.Parse(layout, string(b))
	if err != nil {
		d.fail(err)
		return
	}
	*p = t.Local()
}

// IntOrString decodes an intstr.IntOrString as its UnmarshalJSON does: a
// string is its StrVal (interned), anything else its IntVal.
func IntOrString(d *Decoder, p *intstr.IntOrString) {
	if d.peek() == '"' {
		p.Type = intstr.String
		String(d, &p.StrVal)
		return
	}
	if d.err == nil {
		p.Type = intstr.Int
		Int(d, &p.IntVal)
	}
}
