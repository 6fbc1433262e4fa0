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

// Package v1 contains API Schema definitions for the toys v1 API group, as
// `kubebuilder create api --group toys --version v1 --kind Gadget`
// scaffolds it: no +genclient and no clientset. Its deep copies
// (zz_generated.deepcopy.go) and CRD (config/crd/bases) are controller-gen's;
// its compaction walks (zz_generated.compaction.go), registered with
// informer-gen's runtime/compact when the package is imported, are
// informer-gen --walks-only's (hack/update-codegen.sh runs both).
// +kubebuilder:object:generate=true
// +groupName=toys.example.org
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// In your own project this line is
//
//	//go:generate go run github.com/informer-gen/informer-gen/cmd/informer-gen --walks-only --go-header-file ../../hack/boilerplate.go.txt .
//
// here it builds informer-gen from this repository, so the example always
// uses the generator beside it; with INFORMER_GEN_VERIFY=--verify-only in
// the environment it only checks the checked-in file.
//go:generate sh -c "go build -C ../../../.. -o _output/bin/informer-gen ./cmd/informer-gen && ../../../../_output/bin/informer-gen $INFORMER_GEN_VERIFY --walks-only --go-header-file ../../hack/boilerplate.go.txt ."

var (
	// GroupVersion is group version used to register these objects.
	GroupVersion = schema.GroupVersion{Group: "toys.example.org", Version: "v1"}

	// SchemeBuilder is used to add go types to the GroupVersionKind scheme.
	// It is apimachinery's rather than controller-runtime's scheme.Builder,
	// which is deprecated so that API packages import only apimachinery
	// (and, for their walks, informer-gen's runtime/compact).
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})

	// AddToScheme adds the types in this group-version to the given scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
