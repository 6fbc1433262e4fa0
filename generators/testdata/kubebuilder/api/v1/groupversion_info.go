// Package v1 contains API Schema definitions for the batch v1 API group,
// as kubebuilder scaffolds it: no +genclient, no clientset; its compaction
// walks (zz_generated.compaction.go) are written into the package itself
// by informer-gen --walks-only.
// +kubebuilder:object:generate=true
// +groupName=batch.example.org
package v1

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is group version used to register these objects.
	GroupVersion = schema.GroupVersion{Group: "batch.example.org", Version: "v1"}

	// SchemeBuilder is used to add go types to the GroupVersionKind scheme.
	SchemeBuilder = runtime.NewSchemeBuilder()

	// AddToScheme adds the types in this group-version to the given scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
