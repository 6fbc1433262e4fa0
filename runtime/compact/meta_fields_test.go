package compact

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The walks and equalities of apimachinery's metadata (meta.go,
// meta_update.go) are written by hand. The tests below guard them against
// a field that apimachinery adds: it must make the equality false when it
// differs (or canonical copies and update walks would hand out an old
// value for it), and the update walk must keep the new object's value.

// fill sets every field reachable from v to a value that depends on k, so
// that two fills with different k differ in every leaf.
func fill(v reflect.Value, k int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprint(k))
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(int64(k))
	case reflect.Uint8:
		v.SetUint(uint64(k))
	case reflect.Bool:
		v.SetBool(k%2 == 1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), k)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), k)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		key, val := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(key, 0)
		fill(val, k)
		m.SetMapIndex(key, val)
		v.Set(m)
	case reflect.Struct:
		fillStruct(v, k)
	default:
		panic(fmt.Sprintf("fill: no value for kind %s (%s): teach the test", v.Kind(), v.Type()))
	}
}

func fillStruct(v reflect.Value, k int) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Unix(int64(k), 0)))
		return
	}
	for i := range v.NumField() {
		if v.Type().Field(i).IsExported() {
			fill(v.Field(i), k)
		}
	}
}

// filled returns a T with every field filled with 1, except field (by
// index; -1 for none), filled with 2.
func filled[T any](field int) *T {
	p := new(T)
	fill(reflect.ValueOf(p).Elem(), 1)
	if field >= 0 {
		fill(reflect.ValueOf(p).Elem().Field(field), 2)
	}
	return p
}

func TestEveryMetadataFieldTakesPartInItsEquality(t *testing.T) {
	tests := []struct {
		name  string
		typ   reflect.Type
		equal func(field int) bool
	}{
		{"TypeMeta", reflect.TypeFor[metav1.TypeMeta](), func(f int) bool {
			return Eq(filled[metav1.TypeMeta](-1), filled[metav1.TypeMeta](f))
		}},
		{"ObjectMeta", reflect.TypeFor[metav1.ObjectMeta](), func(f int) bool {
			return EqualObjectMeta(filled[metav1.ObjectMeta](-1), filled[metav1.ObjectMeta](f))
		}},
		{"OwnerReference", reflect.TypeFor[metav1.OwnerReference](), func(f int) bool {
			return EqualOwnerReference(filled[metav1.OwnerReference](-1), filled[metav1.OwnerReference](f))
		}},
		{"ManagedFieldsEntry", reflect.TypeFor[metav1.ManagedFieldsEntry](), func(f int) bool {
			return EqualManagedFieldsEntry(filled[metav1.ManagedFieldsEntry](-1), filled[metav1.ManagedFieldsEntry](f))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.equal(-1) {
				t.Fatalf("two equally filled %ss are not equal", tt.name)
			}
			for f := range tt.typ.NumField() {
				if tt.equal(f) {
					t.Errorf("%ss that differ in %s only are equal: the equality misses the field", tt.name, tt.typ.Field(f).Name)
				}
			}
		})
	}
}

func TestMetadataUpdateWalksKeepEveryChangedField(t *testing.T) {
	type change struct {
		name string
		// edit changes field f of a filled ObjectMeta and returns its
		// name; "" when f is past the last field.
		edit func(m *metav1.ObjectMeta, f int) string
	}
	changes := []change{
		{"ObjectMeta", editField[metav1.ObjectMeta](func(m *metav1.ObjectMeta) *metav1.ObjectMeta { return m })},
		{"OwnerReference", editField[metav1.OwnerReference](func(m *metav1.ObjectMeta) *metav1.OwnerReference {
			return &m.OwnerReferences[0]
		})},
		{"ManagedFieldsEntry", editField[metav1.ManagedFieldsEntry](func(m *metav1.ObjectMeta) *metav1.ManagedFieldsEntry {
			return &m.ManagedFields[0]
		})},
	}
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			for f := 0; ; f++ {
				obj := filled[metav1.PartialObjectMetadata](-1)
				field := c.edit(&obj.ObjectMeta, f)
				if field == "" {
					break
				}
				want := obj.DeepCopy()
				old := filled[metav1.PartialObjectMetadata](-1)
				partialObjectMetadataFrom(NewTable(), obj, old)
				if !reflect.DeepEqual(obj, want) {
					t.Errorf("the update walk lost a change of %s.%s: got %+v, want %+v", c.name, field, obj.ObjectMeta, want.ObjectMeta)
				}
			}
		})
	}
}

// editField returns an edit that fills field f of the T that at finds in
// an ObjectMeta with 2.
func editField[T any](at func(*metav1.ObjectMeta) *T) func(*metav1.ObjectMeta, int) string {
	return func(m *metav1.ObjectMeta, f int) string {
		v := reflect.ValueOf(at(m)).Elem()
		if f >= v.NumField() {
			return ""
		}
		fill(v.Field(f), 2)
		return v.Type().Field(f).Name
	}
}
