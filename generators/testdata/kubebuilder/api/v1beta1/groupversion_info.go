// Package v1beta1 contains API Schema definitions for the batch v1beta1
// API group. Its compaction walks are written by informer-gen
// --walks-only --output-dir walks into walks/batch/v1beta1, a package of
// their own.
// +kubebuilder:object:generate=true
// +groupName=batch.example.org
package v1beta1

import "k8s.io/apimachinery/pkg/runtime/schema"

// GroupVersion is group version used to register these objects.
var GroupVersion = schema.GroupVersion{Group: "batch.example.org", Version: "v1beta1"}
