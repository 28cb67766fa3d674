import json, sys
r = next(json.loads(l) for l in open(sys.argv[1]) if '"type":"point"' in l)
print(f"T42    {sys.argv[2]:>8} {r['h_l1']:11.3e} {r['h_l2']:11.3e} {r['h_linf']:11.3e} {r['v_l2']:11.3e}")
