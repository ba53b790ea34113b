//go:build !js && !wasip1

package storage

const GrowStep = growStep
