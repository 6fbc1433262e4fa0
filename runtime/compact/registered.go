package compact

import "reflect"

// Registered reports whether a compaction of objects of example's Go type
// (a pointer type, *corev1.Pod) was registered with Register, as
// generated walks do from init; For falls back to the reflective walk for
// a type that has none. Tests of generated walk packages use it to check
// that importing a package registered what it should.
func Registered(example any) bool {
	_, ok := registry.Load(reflect.TypeOf(example))
	return ok
}
