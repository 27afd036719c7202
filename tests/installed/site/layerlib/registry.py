class Registry:
    """Classes are registered by name and built from a configuration."""

    def __init__(self, name):
        self.name = name
        self._classes = {}

    def register_module(self, name=None):
        def add(cls):
            self._classes[name or cls.__name__] = cls
            return cls

        return add

    def build(self, cfg):
        args = dict(cfg)
        return self._classes[args.pop("type")](**args)
