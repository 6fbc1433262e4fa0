/*
Copyright The informer-gen Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// GadgetSpec defines the desired state of Gadget.
type GadgetSpec struct {
	// Settings are the gadget's configuration: the reconciler writes them
	// into the ConfigMap it owns, named after the Gadget.
	// +optional
	Settings map[string]string `json:"settings,omitempty"`

	// Image is the container image of the gadget's Pods.
	// +kubebuilder:validation:MinLength=1
	Image string `json:"image"`

	// Replicas is how many Pods run the gadget, each mounting the ConfigMap.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:default=1
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// GadgetStatus defines the observed state of Gadget, written by the
// reconciler.
type GadgetStatus struct {
	// ConfigMap is the name of the ConfigMap that holds the settings.
	// +optional
	ConfigMap string `json:"configMap,omitempty"`

	// Pods is how many Pods of the gadget exist.
	// +optional
	Pods int32 `json:"pods"`

	// ObservedGeneration is the generation of the spec the status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Conditions: Ready is True when the ConfigMap holds the settings and
	// the gadget has as many Pods as it asks for.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Pods",type=integer,JSONPath=`.status.pods`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// Gadget is the Schema for the gadgets API: a ConfigMap of settings and
// Pods that mount it, owned by the Gadget.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GadgetSpec   `json:"spec,omitempty"`
	Status GadgetStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// GadgetList contains a list of Gadget.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Gadget{}, &GadgetList{})
		return nil
	})
}
