"""deadinit's public face: what the command line and other front-ends call.  Each module here
only names what lies below it, in ``deadinit.session`` (the run) and the layers it puts together;
``api.project`` is a command's, ``api.check`` a library caller's."""
