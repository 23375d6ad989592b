//go:build !linux && !windows

package spritzertest

import "syscall"

// procAttr puts the server in a process group of its own, so Stop reaches everything it started.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
