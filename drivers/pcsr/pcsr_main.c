// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcsr_main.c - module entry points and frame discovery of arm_pcsr, a perf
 * PMU driver for the Arm PC Sample-based Profiling Extension (Arm ARM H7).
 *
 * Each PE's PC Sample-based Profiling frame (Table H7-1) is a DT node
 * "arm,pc-sample-based-profiling" with the frame in "reg" and its PE in a
 * "cpu" phandle, as "arm,coresight-cpu-debug" describes the per-CPU debug
 * frames (Documentation/pcsr.rst, "Device tree binding"). Probe maps a
 * frame, checks that it implements FEAT_PCSRv8p2 (PMDEVID.PCSample) and
 * records whether firmware enabled external non-invasive debug for it
 * (PMAUTHSTATUS.NSNID, H7.1.1). Module init loads only when at least one
 * frame was found, then registers the perf PMU (pcsr_pmu.c).
 */
#define pr_fmt(fmt) "arm_pcsr: " fmt

#include <linux/bitfield.h>
#include <linux/cpu.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/of.h>
#include <linux/platform_device.h>

#include "pcsr.h"

DEFINE_PER_CPU(struct pcsr_frame *, pcsr_frame);
static unsigned int pcsr_nr_frames;

static int pcsr_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct device_node *cpu_np;
	struct pcsr_frame *f;
	u32 devid, auth;
	int cpu;

	cpu_np = of_parse_phandle(dev->of_node, "cpu", 0);
	if (!cpu_np) {
		dev_err(dev, "no \"cpu\" phandle: cannot tell whose frame this is\n");
		return -EINVAL;
	}
	cpu = of_cpu_node_to_id(cpu_np);
	of_node_put(cpu_np);
	if (cpu < 0) {
		dev_err(dev, "the \"cpu\" phandle is not a possible CPU\n");
		return -ENODEV;
	}
	if (per_cpu(pcsr_frame, cpu)) {
		dev_err(dev, "CPU%d already has a PC sample frame\n", cpu);
		return -EBUSY;
	}

	f = devm_kzalloc(dev, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(f->base))
		return PTR_ERR(f->base);

	devid = readl_relaxed(f->base + PCSR_PMDEVID);
	if (FIELD_GET(PCSR_DEVID_PCSAMPLE, devid) != 1) {
		dev_err(dev, "CPU%d: PMDEVID.PCSample is %lu, not FEAT_PCSRv8p2 (H7.1.2)\n",
			cpu, FIELD_GET(PCSR_DEVID_PCSAMPLE, devid));
		return -ENODEV;
	}
	auth = readl_relaxed(f->base + PCSR_PMAUTHSTATUS);
	f->niden = FIELD_GET(PCSR_AUTH_NSNID, auth) == PCSR_AUTH_NSNID_ON;
	f->has_ctl = readl_relaxed(f->base + PCSR_PMPCSCTL) & PCSR_PMPCSCTL_IMP;
	f->cpu = cpu;
	f->dev = dev;

	if (!f->niden)
		dev_warn(dev, "CPU%d: firmware disabled external non-invasive debug (PMAUTHSTATUS.NSNID=%lu): events on it are refused with EACCES\n",
			 cpu, FIELD_GET(PCSR_AUTH_NSNID, auth));
	per_cpu(pcsr_frame, cpu) = f;
	platform_set_drvdata(pdev, f);
	pcsr_nr_frames++;
	dev_dbg(dev, "CPU%d: PC sample frame%s\n", cpu,
		f->has_ctl ? " with PMPCSCTL" : "");
	return 0;
}

static SPE_REMOVE_RET pcsr_remove(struct platform_device *pdev)
{
	struct pcsr_frame *f = platform_get_drvdata(pdev);

	per_cpu(pcsr_frame, f->cpu) = NULL;
	pcsr_nr_frames--;
	return SPE_REMOVE_OK;
}

static const struct of_device_id pcsr_of_match[] = {
	{ .compatible = "arm,pc-sample-based-profiling" },
	{ }
};
MODULE_DEVICE_TABLE(of, pcsr_of_match);

static struct platform_driver pcsr_driver = {
	.driver = {
		.name = "arm_pcsr",
		.of_match_table = pcsr_of_match,
		/* the PMU uses the frames until module exit */
		.suppress_bind_attrs = true,
	},
	.probe = pcsr_probe,
	.remove = pcsr_remove,
};

static int __init pcsr_init(void)
{
	int ret;

	ret = platform_driver_register(&pcsr_driver);
	if (ret)
		return ret;
	if (!pcsr_nr_frames) {
		pr_err("no PC Sample-based Profiling frame (DT \"arm,pc-sample-based-profiling\"): nothing to drive\n");
		ret = -ENODEV;
		goto out_driver;
	}
	ret = pcsr_pmu_register();
	if (ret)
		goto out_driver;
	pr_info("%u PC sample frame(s)\n", pcsr_nr_frames);
	return 0;

out_driver:
	platform_driver_unregister(&pcsr_driver);
	return ret;
}

static void __exit pcsr_exit(void)
{
	pcsr_pmu_unregister();
	platform_driver_unregister(&pcsr_driver);
}

module_init(pcsr_init);
module_exit(pcsr_exit);

MODULE_DESCRIPTION("Perf PMU for the Arm PC Sample-based Profiling Extension");
MODULE_LICENSE("GPL");
