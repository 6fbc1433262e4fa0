package cache

// Object is what the typed API requires of the objects it handles: every
// API object pointer (*v1.Pod, a CRD's *Widget) satisfies it. comparable
// lets DeletedObject tell a missing object (the zero T, nil) apart.
type Object interface {
	comparable

	GetName() string
	GetNamespace() string
}
