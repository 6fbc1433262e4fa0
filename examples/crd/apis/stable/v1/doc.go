// Package v1 is version v1 of the stable.example.com API group of the
// example CRD project: a namespaced Widget and a cluster-scoped Gadget.
//
// The types are plain data; they are not safe for concurrent mutation.
// Objects handed out by informers and listers are shared and must be
// treated as read-only (DeepCopy before changing them).
//
// +k8s:deepcopy-gen=package
// +groupName=stable.example.com
package v1
