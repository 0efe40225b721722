"""The answer path: contract, record and the pipeline that ties the boundaries (the modes are in `prompting`)."""
