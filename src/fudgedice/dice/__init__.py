"""The generic dice language: one parse tree rolled (or read by hand), measured
exactly and sampled, by interpreters that share the pool rules. Every system
builds on its Program."""
