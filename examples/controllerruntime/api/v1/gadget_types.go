package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GadgetSpec is the desired state of a Gadget: the ConfigMap the
// controller keeps for it.
type GadgetSpec struct {
	// Message is written to the ConfigMap's "message" key.
	// +kubebuilder:validation:MinLength=1
	Message string `json:"message"`
	// Labels are copied to the ConfigMap.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
}

// GadgetStatus is the observed state of a Gadget.
type GadgetStatus struct {
	// ConfigMap names the ConfigMap the controller keeps for the Gadget.
	// +optional
	ConfigMap string `json:"configMap,omitempty"`
	// ObservedGeneration is the generation the ConfigMap reflects.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Gadget asks for a ConfigMap holding its message.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GadgetSpec   `json:"spec,omitempty"`
	Status GadgetStatus `json:"status,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}
