// svmbook-jupyter: arrow keys reach the widgets that handle them.
//
// A JupyterLab / Notebook 7 extension in plain JavaScript, with no build
// step (it is the "remote entry" that the Jupyter front end loads for a
// prebuilt extension: a container with init() and get()). It is found
// through jupyter/jupyter_server_config.py (extra_labextensions_path) when
// JUPYTER_CONFIG_PATH=$PWD/jupyter.
//
// Why: Notebook 7.6.5 starts its application without `bubblingKeydown`
// (jupyter/notebook app/index.template.js: `await app.start()`), so Lumino
// listens to keydown on the document in the capture phase
// (@lumino/application: document.addEventListener('keydown', this,
// !this._bubblingKeydown)) and runs the command registry before any
// element of the page sees the key. The notebook's command-mode bindings
// ArrowLeft/ArrowRight (notebook:move-cursor-heading-above-or-collapse,
// ...-below-or-expand) and ArrowUp/ArrowDown (notebook:move-cursor-up,
// ...-down) have the selector
// `.jp-Notebook.jp-mod-commandMode:not(.jp-mod-readWrite) :focus`, which a
// focused slider handle matches, and they stop the event's propagation:
// an ipywidgets slider or a frame player never gets the key. JupyterLab
// starts with bubblingKeydown, so there the widget acts first.
//
// The fix uses Lumino's documented escape hatch: the command registry
// ignores a keydown whose target (or an ancestor) has the attribute
// `data-lm-suppress-shortcuts` (@lumino/commands, processKeydownEvent and
// targetDistance). A capture listener on the window runs before the
// document's, and marks the target for that one event, only for the keys
// a slider or a player uses, only inside an ipywidget or an svmlib frame
// player. Every other key, and every key elsewhere, works as before.
(function () {
  'use strict';

  var NAME = 'svmbook-jupyter';
  var ATTRIBUTE = 'data-lm-suppress-shortcuts';
  var OWN_KEYS = '.jupyter-widgets, .svmlib-player';
  var KEYS = [
    'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown',
    'Home', 'End', 'PageUp', 'PageDown'
  ];

  function onKeydown(event) {
    var target = event.target;
    if (KEYS.indexOf(event.key) < 0) return;
    if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) {
      return;
    }
    if (!(target instanceof Element) || !target.closest(OWN_KEYS)) return;
    if (target.hasAttribute(ATTRIBUTE)) return;
    target.setAttribute(ATTRIBUTE, '');
    // removed once this event has been dispatched
    setTimeout(function () { target.removeAttribute(ATTRIBUTE); }, 0);
  }

  var plugin = {
    id: NAME + ':widget-keys',
    description: 'Arrow keys reach ipywidgets sliders and frame players.',
    autoStart: true,
    activate: function () {
      window.addEventListener('keydown', onKeydown, true);
    }
  };

  var container = {
    init: function () { return Promise.resolve(); },
    get: function (module) {
      if (module !== './extension') {
        return Promise.reject(new Error(NAME + ' has no module ' + module));
      }
      return Promise.resolve(function () {
        return { __esModule: true, default: [plugin] };
      });
    }
  };

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB[NAME] = container;
})();
