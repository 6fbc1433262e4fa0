// Package v1 is version v1 of the apps.example.com API group of the
// controller-runtime example: a namespaced Gadget, laid out as kubebuilder
// lays out an API package (no clientset, no generated informers). Its
// compaction walks (zz_generated.compaction.go) come from informer-gen's
// walks-only mode and are registered when the package is imported; its
// deep copies (zz_generated.deepcopy.go) from deepcopy-gen, in place of
// controller-gen's object generator. It imports only k8s.io/apimachinery
// and informer-gen's runtime/compact.
//
// +k8s:deepcopy-gen=package
// +kubebuilder:object:generate=true
// +groupName=apps.example.com
package v1
