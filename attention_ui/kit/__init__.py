"""The shared UI kit: what every page uses; it imports only attention_core and itself."""
