package main

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	clientmetadata "k8s.io/client-go/metadata"

	"github.com/informer-gen/informer-gen/runtime/metadata"
)

// metadataClient adapts client-go's metadata client to metadata.Client,
// as a generated factory's WithMetadataClient does.
type metadataClient struct{ c clientmetadata.Interface }

var _ metadata.Client = metadataClient{}

func (m metadataClient) List(ctx context.Context, gvr schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	return m.c.Resource(gvr).Namespace(namespace).List(ctx, opts)
}

func (m metadataClient) Watch(ctx context.Context, gvr schema.GroupVersionResource, namespace string, opts metav1.ListOptions) (watch.Interface, error) {
	return m.c.Resource(gvr).Namespace(namespace).Watch(ctx, opts)
}
