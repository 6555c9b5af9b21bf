"""Knowledge read from torch's releases and other cited sources, as data with loaders."""
