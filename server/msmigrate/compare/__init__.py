"""`msmigrate compare`: a torch model and its migration, run side by side (core: config, service, report,
graph_errors; worker side: worker_*.py, run by msmigrate.weights.worker)."""
