package controller

import "k8s.io/apimachinery/pkg/api/meta"

// SameVersion reports whether relisted obj is the cached object old,
// unchanged: same object (UID) and same, non-empty, resourceVersion.
func SameVersion(old, obj any) bool {
	oldUID, oldRV := identity(old)
	newUID, newRV := identity(obj)
	return oldUID == newUID && oldRV == newRV && newRV != ""
}

// uidChanged reports whether old and obj, stored under the same key, are
// two different objects: both have a UID and the UIDs differ.
func uidChanged(old, obj any) bool {
	oldUID, _ := identity(old)
	newUID, _ := identity(obj)
	return oldUID != newUID && oldUID != "" && newUID != ""
}

// identity returns the UID and resourceVersion of obj, empty when obj has
// no object metadata.
func identity(obj any) (uid, resourceVersion string) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", ""
	}
	return string(m.GetUID()), m.GetResourceVersion()
}
