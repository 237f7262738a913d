/**
 * One warm LibreOffice for Sheaf's office converter (office-process.ts).
 *
 * Starts soffice.bin headless with the profile folder it is given, connects to it over a private pipe
 * with UNO and converts the files it is asked to, one at a time, for as long as it lives. The Node side
 * runs this script in a fresh network namespace (`unshare -n`) and in a process group of its own, so
 * LibreOffice can reach no network and a kill of the group ends both. Protocol: JSON lines; stdin
 * {"id", "input", "output", "inFilter", "inOptions", "outFilter", "outFilterData"}; stdout first {"ready": true, "pid"},
 * then {"id", "ok": true} or {"id", "ok": false, "error": "encrypted" | "unreadable" | "failed", "detail"}.
 *
 * Kept as a string and run with `python3 -c`, so the built server needs no file beside its bundle.
 * It needs Debian's python3-uno (the `uno` module LibreOffice ships for the system Python).
 */
export const OFFICE_WORKER_PY = String.raw`import json
import os
import subprocess
import sys
import time

import uno
import unohelper
from com.sun.star.beans import PropertyValue
from com.sun.star.task import XInteractionHandler

PROGRAM = '/usr/lib/libreoffice/program/soffice.bin'


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


class Refuse(unohelper.Base, XInteractionHandler):
    """Answers every question LibreOffice asks with Abort; remembers whether it asked for a password."""

    def __init__(self):
        self.password = False

    def handle(self, request):
        question = request.getRequest()
        if 'Password' in (getattr(question, 'typeName', '') or type(question).__name__):
            self.password = True
        for continuation in request.getContinuations():
            if any(t.typeName == 'com.sun.star.task.XInteractionAbort' for t in continuation.getTypes()):
                continuation.select()
                return


def launch(profile, pipe):
    return subprocess.Popen([
        PROGRAM, '--headless', '--invisible', '--nologo', '--norestore', '--nodefault', '--nolockcheck',
        '--nofirststartwizard', '-env:UserInstallation=' + profile, '--accept=pipe,name=%s;urp;' % pipe,
    ], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start(profile):
    pipe = 'sheaf-%d-%d' % (os.getpid(), int(time.time() * 1000))
    office = launch(profile, pipe)
    restarts = 0
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext('com.sun.star.bridge.UnoUrlResolver', local)
    deadline = time.time() + 60
    while True:
        try:
            context = resolver.resolve('uno:pipe,name=%s;urp;StarOffice.ComponentContext' % pipe)
            break
        except Exception:
            # A new profile is made on the first start, which then asks to be restarted (exit 81),
            # as oosplash would do.
            if office.poll() == 81 and restarts < 2:
                restarts += 1
                office = launch(profile, pipe)
                continue
            if office.poll() is not None or time.time() > deadline:
                raise SystemExit('LibreOffice did not start (%s)' % office.poll())
            time.sleep(0.05)
    desktop = context.ServiceManager.createInstanceWithContext('com.sun.star.frame.Desktop', context)
    return office, desktop


def convert(desktop, task):
    refuse = Refuse()
    load = [
        prop('Hidden', True), prop('ReadOnly', True),
        # Macros never run; links (remote images, linked sections, DDE) are never updated.
        prop('MacroExecutionMode', 0), prop('UpdateDocMode', 0),
        prop('InteractionHandler', refuse),
    ]
    if task.get('inFilter'):
        load.append(prop('FilterName', task['inFilter']))
    if task.get('inOptions'):
        load.append(prop('FilterOptions', task['inOptions']))
    try:
        document = desktop.loadComponentFromURL(uno.systemPathToFileUrl(task['input']), '_blank', 0, tuple(load))
    except Exception as error:  # IllegalArgumentException, IOException: not a document it can read
        document = None
        detail = str(error)
    else:
        detail = ''
    if document is None:
        return {'ok': False, 'error': 'encrypted' if refuse.password else 'unreadable', 'detail': detail[:300]}
    # Detection may open an OLE file as a spreadsheet or drawing: only text documents are templates.
    if not document.supportsService('com.sun.star.text.TextDocument'):
        document.close(True)
        return {'ok': False, 'error': 'unreadable', 'detail': 'not a text document'}
    try:
        store = [prop('FilterName', task['outFilter'])]
        if task.get('outFilterData'):
            # FilterData is a sequence of properties: it must reach UNO typed as such (uno.Any + invoke).
            data = tuple(prop(name, value) for name, value in task['outFilterData'].items())
            store.append(prop('FilterData', uno.Any('[]com.sun.star.beans.PropertyValue', data)))
            uno.invoke(document, 'storeToURL', (uno.systemPathToFileUrl(task['output']), tuple(store)))
        else:
            document.storeToURL(uno.systemPathToFileUrl(task['output']), tuple(store))
        return {'ok': True}
    except Exception as error:
        return {'ok': False, 'error': 'failed', 'detail': str(error)[:300]}
    finally:
        try:
            document.close(True)
        except Exception:
            document.dispose()


def main():
    office, desktop = start(sys.argv[1])
    print(json.dumps({'ready': True, 'pid': office.pid}), flush=True)
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        task = json.loads(line)
        try:
            reply = convert(desktop, task)
        except Exception as error:  # the bridge to a LibreOffice that crashed
            reply = {'ok': False, 'error': 'unreadable', 'detail': str(error)[:300]}
        reply['id'] = task['id']
        print(json.dumps(reply), flush=True)
        # LibreOffice died on that file: end too, so a fresh one takes the next.
        if office.poll() is not None:
            sys.exit(3)
    # Asked to end: a terminated desktop removes its pipes from /tmp (a signal would leave them).
    try:
        desktop.terminate()
    except Exception:
        pass  # the bridge closes as LibreOffice goes
    try:
        office.wait(timeout=5)
    except subprocess.TimeoutExpired:
        office.kill()


if __name__ == '__main__':
    main()
`;
