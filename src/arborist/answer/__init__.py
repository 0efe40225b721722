"""The answer path: modes, contract, record and the pipeline that ties the boundaries."""
